/// The env layer, typed: `SWITCHBOARD_<KEY>` variables parsed by their key's type and checked against its
/// definition. A value that does not parse or fit is skipped with a warning naming the variable.
package enum EnvironmentLayer {
    /// Types the environment's `SWITCHBOARD_...` variables against a registry.
    package static func type(_ environment: [String: String], against registry: Registry) -> LayerResult {
        var result = LayerResult(layer: .env)
        guard environment.keys.contains(where: { $0.hasPrefix("SWITCHBOARD_") }) else { return result }
        for definition in registry.definitions {
            let variable = KeySyntax.environmentVariable(for: definition.key)
            // A key whose variable is one of Switchboard's own loads only from a flagd file (with a warning), and
            // that variable still means what Switchboard reads it as.
            guard let text = environment[variable], !KeySyntax.isReserved(variable) else { continue }
            let origin = Origin.environment(variable: variable, text: text)
            var typed = TypedOverride()
            // Read as a command line's text is: a variant's name, else the text parsed by the key's type.
            switch definition.fit(text: text) {
            case .success(let value):
                typed.accepted = Override(key: definition.key, value: value, layer: .env, origin: origin)
            case .failure(let problem):
                // The value as parsed when it parses (explain shows what was refused), else the text.
                let shown = (try? Value.parse(text, as: definition.type).get()) ?? .string(text)
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

extension EnvironmentLayer {
    /// A warning for each `SWITCHBOARD_…` variable of `environment` that overrides no key and is not one of
    /// Switchboard's own, with the nearest key's variable as a hint: a misspelt override is otherwise ignored
    /// without a word.
    package static func unknownVariables(in environment: [String: String], registry: Registry) -> [Diagnostic] {
        let unknown = environment.keys.filter { $0.hasPrefix("SWITCHBOARD_") && !KeySyntax.isReserved($0) }
        guard !unknown.isEmpty else { return [] }
        var keys: [String: String] = [:]
        for key in registry.keys { keys[KeySyntax.environmentVariable(for: key)] = key }
        return unknown.filter { keys[$0] == nil }.sorted().map { variable in
            let hint = Suggestions.nearest(to: variable, in: keys.keys.sorted()).map {
                Message.didYouMean(one: $0) + " (the variable of \(keys[$0]!))"
            }
            return .warning(at: nil, "\(variable) is set but overrides no key", hint: hint
                ?? "a key's variable is SWITCHBOARD_ and the key in upper case, with . as __ and - as _")
        }
    }
}
