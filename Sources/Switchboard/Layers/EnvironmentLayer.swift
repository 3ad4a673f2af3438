/// The env layer, typed: `SWITCHBOARD_<KEY>` variables parsed by their key's type and checked against its
/// definition. A value that does not parse or fit is skipped with a warning naming the variable.
package enum EnvironmentLayer {
    /// Types the environment's `SWITCHBOARD_...` variables against a registry.
    package static func type(_ environment: [String: String], against registry: Registry) -> LayerResult {
        var result = LayerResult(layer: .env)
        guard environment.keys.contains(where: { $0.hasPrefix("SWITCHBOARD_") }) else { return result }
        for definition in registry.definitions {
            let variable = KeySyntax.environmentVariable(for: definition.key)
            guard let text = environment[variable] else { continue }
            let origin = Origin.environment(variable: variable, text: text)
            var typed = TypedOverride()
            let parsed = Value.parse(text, as: definition.type)
            switch parsed.flatMap(definition.fit) {
            case .success(let value):
                typed.accepted = Override(key: definition.key, value: value, layer: .env, origin: origin)
            case .failure(let problem):
                // The value as parsed when it parses (explain shows what was refused), else the text.
                let shown = (try? parsed.get()) ?? .string(text)
                typed.rejected.append((Override(key: definition.key, value: shown, layer: .env, origin: origin),
                                       problem))
                result.diagnostics.append(.warning(at: nil, "\(variable) skipped: \(problem.message)",
                                                   hint: problem.hint))
            }
            result.keys[definition.key] = typed
        }
        return result
    }
}
