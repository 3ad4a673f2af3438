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

    /// The problem of a value refused for `key`, whose definition has `type`, with `KEY is an int` as its hint
    /// when it has none of its own: what every face says of such a refusal.
    package func hinted(key: String, type: ValueType) -> ValueProblem {
        var problem = self
        if problem.hint == nil { problem.hint = "\(key) is \(type.withArticle)" }
        return problem
    }

    /// The message, with the hint after a semicolon.
    public var description: String {
        hint.map { "\(message); \($0)" } ?? message
    }
}
