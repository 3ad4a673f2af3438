import Switchboard

/// Writes values as Swift literals, broken over lines the way a person would when they do not fit.
enum SwiftLiteral {
    /// Generated lines stay within this many columns where a literal can be broken.
    static let lineLimit = 119

    /// What a literal's contextual type is: the definition's own Swift type (`Double`, `[Value]`, ...) or
    /// `Value` (an element of a list or an object).
    enum Context {
        /// The Swift type of the definition (`Bool`, `Int`, `Double`, `String`, `[Value]`, `[String: Value]`).
        case typed
        /// Switchboard's `Value`, through its literal conformances.
        case element
    }

    /// A string literal with every character that needs it escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The literal on one line.
    static func flat(_ value: Value, _ context: Context) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let int): return String(int)
        case .double(let double): return self.double(double, context)
        case .string(let text): return string(text)
        case .list(let items):
            return "[" + items.map { flat($0, .element) }.joined(separator: ", ") + "]"
        case .object(let members):
            guard !members.isEmpty else { return "[:]" }
            return "[" + sortedKeys(members).map { "\(string($0)): \(flat(members[$0]!, .element))" }
                .joined(separator: ", ") + "]"
        }
    }

    /// The literal of a `Double` definition's value, which may have been written as an integer.
    static func double(_ value: Value) -> String {
        double(value.doubleValue ?? 0, .typed)
    }

    /// A double that reads as one (`50.0`, not `50`); infinities and NaN as their static members.
    static func double(_ double: Double, _ context: Context) -> String {
        let literal: String
        if double.isNaN {
            literal = ".nan"
        } else if double.isInfinite {
            literal = double < 0 ? "-.infinity" : ".infinity"
        } else {
            // Swift's shortest round-tripping form always has a "." or an exponent, so it stays a float literal.
            return String(double)
        }
        return context == .typed ? literal : ".double(\(literal))"
    }

    /// The literal as lines: the first continues a line `column` characters wide, the last is followed by
    /// `trailing` characters, and lines between are indented by `indent`.
    ///
    /// A list or object that does not fit is written one element per line, with a trailing comma, the way
    /// swift-format lays out collection literals.
    static func lines(
        _ value: Value, _ context: Context, column: Int, trailing: Int, indent: String
    ) -> [String] {
        let single = flat(value, context)
        guard column + single.count + trailing > lineLimit else { return [single] }
        let inner = indent + "    "
        var out = ["["]
        switch value {
        case .list(let items) where !items.isEmpty:
            for item in items {
                out += element(lines(item, .element, column: inner.count, trailing: 1, indent: inner), inner)
            }
        case .object(let members) where !members.isEmpty:
            for key in sortedKeys(members) {
                let label = string(key) + ": "
                var item = lines(members[key]!, .element, column: inner.count + label.count, trailing: 1,
                                 indent: inner)
                item[0] = label + item[0]
                out += element(item, inner)
            }
        default:
            return [single]
        }
        out.append(indent + "]")
        return out
    }

    /// One element's lines, indented, with its trailing comma.
    private static func element(_ item: [String], _ indent: String) -> [String] {
        var item = item
        item[0] = indent + item[0]
        item[item.count - 1] += ","
        return item
    }

    /// Object keys in byte order, so the same object is always written the same way.
    static func sortedKeys(_ members: [String: Value]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
