public import YAML

/// One thing wrong (or worth a warning) in definitions, override files or input, at a place in a file.
///
/// Every message Switchboard shows about a file is one of these, rendered in one place
/// (``description``) so the CLI, the REPL, the server and the tests agree on the text:
///
/// ```
/// flags/checkout.yaml:12:7: error: unknown field 'defualt'
///   hint: did you mean 'default'?
/// ```
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The definitions cannot be used.
        case error
        /// Worth fixing; does not fail validation.
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// Where it is, when it is about a place in a file.
    public var location: SourceLocation?
    /// What is wrong, in one line.
    public var message: String
    /// How to fix it.
    public var hint: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: SourceLocation?, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// An error at a location.
    public static func error(at location: SourceLocation?, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, at: location, message, hint: hint)
    }

    /// A warning at a location.
    public static func warning(at location: SourceLocation?, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, at: location, message, hint: hint)
    }

    /// Wraps a YAML parser problem.
    public init(_ problem: YAMLProblem) {
        self.init(.error, at: problem.location, problem.message, hint: problem.hint)
    }

    /// `file:line:column: severity: message`, then `  hint: ...` on the next line when there is a hint.
    public var description: String {
        var text = location.map { "\($0): " } ?? ""
        text += "\(severity.rawValue): \(message)"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }

    /// Whether this is an error.
    public var isError: Bool { severity == .error }

    /// Sorts diagnostics into file and line order (diagnostics without a location first), stable otherwise.
    public static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let l?, let r?): return l == r ? a.offset < b.offset : l < r
            }
        }.map(\.element)
    }
}
