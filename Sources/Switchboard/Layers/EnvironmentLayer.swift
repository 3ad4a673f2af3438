/// The env layer, typed: `SWITCHBOARD_<KEY>` variables parsed by their key's type and checked against its
/// definition. A value that does not parse or fit is skipped with a warning naming the variable.
public enum EnvironmentLayer {
    /// Types the environment's `SWITCHBOARD_...` variables against a registry.
    public static func type(_ environment: [String: String], against registry: Registry) -> LayerResult {
        var result = LayerResult(layer: .env)
        guard environment.keys.contains(where: { $0.hasPrefix("SWITCHBOARD_") }) else { return result }
        for definition in registry.definitions {
            let variable = KeySyntax.environmentVariable(for: definition.key)
            guard let text = environment[variable] else { continue }
            let origin = Origin.environment(variable: variable, text: text)
            var typed = TypedOverride()
            switch Value.parse(text, as: definition.type) {
            case .success(let value):
                let override = Override(key: definition.key, value: value, layer: .env, origin: origin)
                if let problem = definition.problem(with: value) {
                    typed.rejected.append((override, problem))
                    result.diagnostics.append(.warning(at: nil, "\(variable) skipped: \(problem.message)",
                                                       hint: problem.hint))
                } else {
                    typed.accepted = override
                }
            case .failure(let problem):
                typed.rejected.append((Override(key: definition.key, value: .string(text), layer: .env, origin: origin),
                                       problem))
                result.diagnostics.append(.warning(at: nil, "\(variable) skipped: \(problem.message)",
                                                   hint: problem.hint))
            }
            result.keys[definition.key] = typed
        }
        return result
    }
}
