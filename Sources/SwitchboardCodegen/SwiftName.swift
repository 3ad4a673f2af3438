/// The naming rules that turn key segments and string values into Swift identifiers.
///
/// - A key segment or a value is split into words at every character that is not an ASCII letter or digit
///   (`_`, `-`, spaces, ...) and joined in camel case: `new_flow` → `newFlow` for a key, `NewFlow` for the enum
///   of a segment with keys below it; `newest_first` → the case `newestFirst`. A word in capitals only is one
///   word (`HTTP_TIMEOUT` → `httpTimeout`, `GET` → `get`); other words keep their letters (`iOS`, `myFlag`).
/// - A name that would start with a digit gets a leading `_` (`3d_mode` → `_3dMode`), since Swift identifiers
///   cannot.
/// - A Swift keyword is escaped with backticks (`` `default` ``, `` `class` ``, `` `self` ``).
/// - `Type` and `Protocol` get a trailing `_`: `Flags.Payment.Type` would mean the metatype even with backticks.
/// - Text with characters outside ASCII, or without a letter or digit, has no name (`nil`).
enum SwiftName {
    /// The lowerCamelCase name of a key segment, escaped when it is a keyword.
    static func member(forSegment segment: String) -> String? {
        camelCase(words(of: segment), upper: false).map(escaped)
    }

    /// The UpperCamelCase type name of a key segment.
    static func type(forSegment segment: String) -> String? {
        camelCase(words(of: segment), upper: true).map(escapedType)
    }

    /// The lowerCamelCase enum case name for a string value or a variant name.
    static func enumCase(forValue value: String) -> String? {
        camelCase(words(of: value), upper: false).map(escaped)
    }

    /// A name as written after a dot (`Flags.Checkout.newFlow`, `.newestFirst`): only `self`, `init`, `Type`
    /// and `Protocol` keep their backticks there; other keywords are plain members after a dot.
    static func afterDot(_ name: String) -> String {
        let bare = unescaped(name)
        return Self.reservedAfterDot.contains(bare) ? name : bare
    }

    /// A name without its backticks.
    static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
    }

    /// The runs of ASCII letters and digits; none when the text has anything outside ASCII, which would make
    /// names that differ only in characters the rules drop.
    static func words(of text: String) -> [Substring] {
        guard text.unicodeScalars.allSatisfy(\.isASCII) else { return [] }
        return text.split { !$0.isASCIILetterOrDigit }
    }

    /// Joins words in camel case: a word in capitals only counts as a plain word (`URL` → `url`, `Url`), other
    /// words keep their letters after the first (`iOS`, `myFlag`).
    static func camelCase(_ words: [Substring], upper: Bool) -> String? {
        guard !words.isEmpty else { return nil }
        var name = ""
        for (position, word) in words.enumerated() {
            let isAllCapitals = word.allSatisfy { !$0.isLowercase }
            let rest = isAllCapitals ? word.dropFirst().lowercased() : String(word.dropFirst())
            let first = position == 0 && !upper ? word.prefix(1).lowercased() : word.prefix(1).uppercased()
            name += first + rest
        }
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func escapedType(_ name: String) -> String {
        if name == "Type" || name == "Protocol" { return name + "_" }
        return escaped(name)
    }

    /// Names that keep their backticks after a dot.
    static let reservedAfterDot: Set<String> = ["self", "Self", "init", "Type", "Protocol"]

    /// The Swift keywords that cannot be identifiers without backticks (The Swift Programming Language, "Lexical
    /// Structure"), plus `Type` and `Protocol`, which are members of every type.
    static let keywords: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Members of every type.
        "Type", "Protocol",
    ]
}

extension Character {
    /// `a`–`z`, `A`–`Z` or `0`–`9`.
    var isASCIILetterOrDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x30 && ascii <= 0x39)
    }
}
