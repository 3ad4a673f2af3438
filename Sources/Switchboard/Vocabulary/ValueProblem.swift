/// Why a value does not fit a definition.
public struct ValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong: "expected an int, found a string".
    public var message: String
    /// How to fix it: "allowed values: newest_first, oldest_first".
    public var hint: String?

    /// Creates a problem.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message, with the hint after a semicolon.
    public var description: String {
        hint.map { "\(message); \($0)" } ?? message
    }
}
