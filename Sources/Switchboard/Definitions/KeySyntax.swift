/// The key syntax: dot-separated segments of lowercase letters, digits, `_` and `-`.
package enum KeySyntax {
    /// Whether a key (or namespace) is well formed.
    package static func isValid(_ key: String) -> Bool {
        // Over the bytes in place (every key of every load comes here): iterating the UTF-8 view cost about 5 ns a
        // byte, 1% of a load.
        key.utf8.withContiguousStorageIfAvailable { isValid(bytes: $0) } ?? isValid(bytes: Array(key.utf8))
    }

    private static func isValid(bytes: some Collection<UInt8>) -> Bool {
        var segmentLength = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                segmentLength += 1
            case UInt8(ascii: "."):
                if segmentLength == 0 { return false }
                segmentLength = 0
            default:
                return false
            }
        }
        return segmentLength > 0
    }

    /// Whether `namespace` covers `key` as a whole-segment prefix: the key itself, or a key below it
    /// (`checkout` covers `checkout` and `checkout.new_flow`, never `checkouts.x`).
    package static func namespace(_ namespace: String, covers key: String) -> Bool {
        guard key.hasPrefix(namespace) else { return false }
        let rest = key.dropFirst(namespace.count)
        return rest.isEmpty || rest.first == "."
    }

    /// A hint for an invalid key, suggesting the nearest valid spelling.
    package static func hint(for key: String) -> String {
        var fixed = ""
        for character in key.lowercased() {
            if character.isLetter || character.isNumber || character == "_" || character == "-" || character == "." {
                fixed.append(character.isASCII ? character : "_")
            } else {
                fixed.append("_")
            }
        }
        let suggestion = fixed.split(separator: ".").joined(separator: ".")
        let rule = "keys are dot-separated segments of lowercase letters, digits, '_' and '-'"
        return KeySyntax.isValid(suggestion) && suggestion != key ? "\(rule); try '\(suggestion)'" : rule
    }

    /// The environment variable that overrides a key: `SWITCHBOARD_` + key in upper case, `.` as `__`,
    /// `-` as `_`.
    package static func environmentVariable(for key: String) -> String {
        EnvironmentName(key).withBytes { "SWITCHBOARD_" + String(decoding: $0, as: UTF8.self) }
    }

    /// Switchboard's own variables, after `SWITCHBOARD_`: read by the command line, the server, the REPL, the
    /// tests and CI, never as overrides. The one list of them: `validate` does not take one for a misspelt
    /// override, and a key whose variable is one is refused (see `reservedVariable(forKey:)`).
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
        // (Compared byte by byte, ignoring ASCII case: no other character lowercases to these letters, and this
        // runs for every key of every load.)
        guard !key.utf8.contains(UInt8(ascii: ".")) || key.utf8.prefix(4).lazy.map({ $0 | 0x20 }).elementsEqual("test".utf8)
        else { return nil }
        let variable = KeySyntax.environmentVariable(for: key)
        return isReserved(variable) ? variable : nil
    }
}
