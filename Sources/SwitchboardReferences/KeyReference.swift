/// How code names a key.
public enum ReferenceForm: String, Sendable, Hashable, CaseIterable {
    /// A generated typed key: `Flags.Checkout.newFlow`, `Prefs.App.theme`.
    case typed
    /// `FlagKey("checkout.new_flow", default: false)`.
    case flagkey
    /// A string literal as the key of a lookup or write: `board.bool("checkout.new_flow")`.
    case string
    /// `forKey: "checkout.new_flow"` on a swift-configuration `ConfigReader`.
    case config
}

/// A place in a Swift file: the file as given, and the 1-based line and column (in UTF-8 bytes) of an expression.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path, as it was given to the scan.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a position.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column.
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// One read (or write) of a key that the source names exactly.
public struct KeyReference: Sendable, Hashable {
    /// The key, as the definitions spell it (`checkout.new_flow`).
    public var key: String
    /// Where the key expression starts.
    public var position: SourcePosition
    /// How the code names it.
    public var form: ReferenceForm

    /// Creates a reference.
    public init(key: String, position: SourcePosition, form: ReferenceForm) {
        self.key = key
        self.position = position
        self.form = form
    }
}
