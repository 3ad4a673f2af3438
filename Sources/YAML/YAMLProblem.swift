/// Something wrong with a YAML file, at a place in it.
///
/// A fatal problem (a syntax error, an alias bomb, a second document) stops the parse; a non-fatal one
/// (a duplicate key) is reported and the parse goes on.
public struct YAMLProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in one line.
    public var message: String
    /// How to fix it, when there is something useful to say.
    public var hint: String?
    /// Whether parsing stopped here.
    public var isFatal: Bool

    /// Creates a problem.
    public init(location: SourceLocation, message: String, hint: String? = nil, isFatal: Bool = true) {
        self.location = location
        self.message = message
        self.hint = hint
        self.isFatal = isFatal
    }

    /// `file:line:column: error: message`, followed by the hint on its own line.
    public var description: String {
        var text = "\(location): error: \(message)"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}

/// The outcome of parsing one file: its root node, when there was one and parsing got through, and every
/// problem found.
public struct YAMLDocument: Sendable {
    /// The root node; `nil` for an empty file or after a fatal problem.
    public var root: Node?
    /// Problems in source order of discovery.
    public var problems: [YAMLProblem]
    /// Whether the stream held no document at all (an empty file or only comments).
    public var isEmpty: Bool

    /// Creates a document.
    public init(root: Node?, problems: [YAMLProblem], isEmpty: Bool) {
        self.root = root
        self.problems = problems
        self.isEmpty = isEmpty
    }
}
