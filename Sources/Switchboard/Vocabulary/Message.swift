/// Every message that more than one face shows (the CLI, the REPL, the server), written once here. Each face
/// renders a message's text and hint its own way (`error: … / hint: …` on a terminal, `{"error": …, "hint": …}`
/// over HTTP), never its own wording.
package enum Message: Sendable, Hashable {
    /// A key no definition has, with the nearest keys.
    case unknownKey(String, suggestions: [String])
    /// A `list` pattern no key matches, with the nearest keys.
    case noKeyMatches(pattern: String, suggestions: [String])
    /// A value refused for a key, with why; `type` adds the key's type as a hint when the problem gives none.
    case refusedValue(key: String, problem: ValueProblem, type: ValueType?)
    /// The count of errors and warnings that ends a report.
    case summary(errors: Int, warnings: Int)
    /// A value that is not of the type the caller asked for (`swiftType`, such as a generated enum); `field` says
    /// where a ``CodableFlagValue`` failed to decode.
    case typeMismatch(
        key: String, found: Value, expected: ValueType, swiftType: String, field: ValueDecodingError? = nil
    )

    /// A flag that is switched off (`enabled: false`): it serves no value, and every caller gets the default it
    /// passed, with the reason `DISABLED`, as OpenFeature has it.
    case disabled

    /// `reset KEY` of a key with no runtime override: nothing to remove, nothing written.
    case noRuntimeOverride(key: String)
    /// `reset --all` of a store with no runtime override: nothing written.
    case noRuntimeOverrides
    /// `reset --all` removed this many runtime overrides.
    case removedRuntimeOverrides(Int)
    /// `reset KEY` removed the override of a key no definition has.
    case removedOrphanedOverride(key: String)
    /// `reset KEY` removed the key's override without the definitions (they have errors), so without its new value.
    case removedOverride(key: String)

    /// The message itself, one line.
    package var text: String {
        switch self {
        case .unknownKey(let key, _):
            "unknown key '\(key)'"
        case .noKeyMatches(let pattern, _):
            "no key matches '\(pattern)'"
        case .refusedValue(let key, let problem, _):
            "refused value for \(key): \(problem.message); nothing was written"
        case .summary(let errors, let warnings):
            Self.count(errors, "error") + ", " + Self.count(warnings, "warning")
        case .typeMismatch(let key, let found, let expected, let swiftType, let field):
            if let field {
                // Rooted at the key's last segment: `support.email: expected a string, found an int`.
                "\(field.pathText(root: String(key.split(separator: ".").last ?? ""))): \(field.message)"
            } else if expected == .string, found.stringValue != nil {
                "\(key) is \"\(found.plainText)\", which \(swiftType) has no case for"
            } else {
                "\(key) is \(found.kindDescription), not \(expected.withArticle)"
            }
        case .disabled:
            "disabled: callers get their own default"
        case .noRuntimeOverride(let key):
            "\(key) has no runtime override"
        case .noRuntimeOverrides:
            "there are no runtime overrides"
        case .removedRuntimeOverrides(let count):
            "removed \(Self.count(count, "runtime override"))"
        case .removedOrphanedOverride(let key):
            "removed the orphaned runtime override of \(key)"
        case .removedOverride(let key):
            "removed the runtime override of \(key)"
        }
    }

    /// What to do about it, when there is something to say.
    package var hint: String? {
        switch self {
        case .unknownKey(_, let suggestions):
            Self.didYouMean(suggestions) ?? "list the keys to see which are defined"
        case .noKeyMatches(_, let suggestions):
            Self.didYouMean(suggestions) ?? "`list` with no pattern shows every key"
        case .refusedValue(let key, let problem, let type):
            (type.map { problem.hinted(key: key, type: $0) } ?? problem).hint
        case .summary, .typeMismatch, .disabled, .noRuntimeOverride, .noRuntimeOverrides, .removedRuntimeOverrides,
             .removedOrphanedOverride, .removedOverride:
            nil
        }
    }

    /// `did you mean 'a', 'b'?`, or `nil` when there is nothing to suggest.
    package static func didYouMean(_ suggestions: [String]) -> String? {
        suggestions.isEmpty ? nil : didYouMean(one: suggestions.joined(separator: "', '"))
    }

    /// `did you mean 'a'?`.
    package static func didYouMean(one suggestion: String) -> String {
        "did you mean '\(suggestion)'?"
    }

    /// Text someone else chose (a key a client sent, a name a request claimed), quoted for a terminal or a
    /// Markdown table: JSON string syntax with every character outside printable ASCII as a `\u` escape, so that
    /// no control character (C0, DEL, C1), bidirectional override or line break reaches the reader as itself.
    package static func quoted(_ text: String) -> String {
        var quoted = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: quoted += "\\\""
            case 0x5C: quoted += "\\\\"
            case 0x0A: quoted += "\\n"
            case 0x20...0x7E: quoted.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return quoted + "\""
    }

    /// `1 error`, `2 warnings`.
    package static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The line that ends a command stopped by errors in what it read, after the errors themselves, with its newline:
    /// `2 errors in the definitions; nothing was generated.`
    ///
    /// - Parameters:
    ///   - errors: how many errors there were.
    ///   - source: what they were found in.
    ///   - outcome: what the command therefore did not do.
    package static func stopped(byErrors errors: Int, in source: String = "the definitions", _ outcome: String)
        -> String
    {
        "\(count(errors, "error")) in \(source); \(outcome).\n"
    }

    /// The message as a diagnostic without a place, for faces that render diagnostics.
    package var diagnostic: Diagnostic {
        .error(at: nil, text, hint: hint)
    }
}
