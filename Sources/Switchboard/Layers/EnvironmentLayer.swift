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
            guard let text = environment[variable], !isReserved(variable) else { continue }
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

extension EnvironmentLayer {
    /// Switchboard's own variables, after `SWITCHBOARD_`: read by the command line, the server, the REPL, the
    /// tests and CI, never as overrides. The one list of them: `validate` does not take one for a misspelt
    /// override, and a key whose variable is one is refused (see ``reservedVariable(forKey:)``).
    package static let reservedNames: Set<String> = [
        "ACTOR",  // the actor of the audit log
        "ADMIN_TOKEN", "READ_TOKEN",  // `serve`'s tokens
        "BIN",  // the console tests' binary
        "ENV", "SCOPE", "STATE", "STATE_COMPACTION_BYTES", "STORE",  // `BoardInputs` and the store options
        "REPL_HISTORY",  // the REPL's history file
        "UPDATE_GOLDEN",  // tests that rewrite their golden files
    ]

    /// Prefixes of Switchboard's own variables: `TEST_` for the test suites' settings, such as CI's
    /// `SWITCHBOARD_TEST_POSTGRES_URL`. A prefix followed by another `_` is a key's namespace separator instead
    /// (`test.x` is `SWITCHBOARD_TEST__X`), which no variable of Switchboard's has.
    package static let reservedPrefixes = ["TEST_"]

    /// Whether `variable` is one of Switchboard's own.
    package static func isReserved(_ variable: String) -> Bool {
        guard variable.hasPrefix("SWITCHBOARD_") else { return false }
        let name = variable.dropFirst("SWITCHBOARD_".count)
        return reservedNames.contains(String(name)) || reservedPrefixes.contains { prefix in
            name.hasPrefix(prefix) && !name.dropFirst(prefix.count).hasPrefix("_")
        }
    }

    /// The variable of `key` when it is one of Switchboard's own (key `env` → `SWITCHBOARD_ENV`); `nil` otherwise.
    package static func reservedVariable(forKey key: String) -> String? {
        // No reserved name has `__`, so only a key without a dot can be one, or one with the `TEST_` prefix.
        guard !key.utf8.contains(UInt8(ascii: ".")) || key.lowercased().hasPrefix("test") else { return nil }
        let variable = KeySyntax.environmentVariable(for: key)
        return isReserved(variable) ? variable : nil
    }

    /// A warning for each `SWITCHBOARD_…` variable of `environment` that overrides no key and is not one of
    /// Switchboard's own, with the nearest key's variable as a hint: a misspelt override is otherwise ignored
    /// without a word.
    package static func unknownVariables(in environment: [String: String], registry: Registry) -> [Diagnostic] {
        let unknown = environment.keys.filter { $0.hasPrefix("SWITCHBOARD_") && !isReserved($0) }
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
