import CLibYAML

/// A scalar as written, with the value YAML 1.2's core schema gives it.
public struct Scalar: Sendable, Hashable {
    /// How the scalar was written.
    public enum Style: Sendable, Hashable {
        /// Unquoted; typed by the core schema.
        case plain
        /// `'single quoted'`; always a string.
        case singleQuoted
        /// `"double quoted"`; always a string.
        case doubleQuoted
        /// `|` block; always a string.
        case literal
        /// `>` block; always a string.
        case folded

        /// The style libyaml reports.
        init(_ style: yaml_scalar_style_t) {
            self = switch style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
        }
    }

    /// The scalar's text after YAML's own unescaping and folding: exactly what was written, for a plain scalar.
    public var text: String
    /// How it was written.
    public var style: Style
    /// Its type and value under the core schema (or its explicit tag).
    public var value: Value

    /// Creates a scalar and types it: plain scalars by the core schema, the others as strings.
    public init(text: String, style: Style) {
        self.text = text
        self.style = style
        self.value = style == .plain ? Value.resolve(plain: text) : .string
    }

    /// Creates a scalar with an explicit value.
    public init(text: String, style: Style, value: Value) {
        self.text = text
        self.style = style
        self.value = value
    }

    /// A scalar's typed value. Strings carry no payload: the text is the string.
    public enum Value: Sendable, Hashable {
        /// `null`, `Null`, `NULL`, `~` or nothing.
        case null
        /// `true` or `false` (also `True`, `TRUE`, ...). `yes`, `no`, `on`, `off` are strings in YAML 1.2.
        case bool(Bool)
        /// A decimal, `0o` octal or `0x` hexadecimal integer that fits in 64 bits.
        case int(Int)
        /// A float, `.inf`, `-.inf` or `.nan`, or an integer too large for 64 bits.
        case double(Double)
        /// Anything else: the scalar's text.
        case string

        /// A short name for messages: "null", "a boolean", "an integer", "a number", "a string".
        public var kindDescription: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .int: "an integer"
            case .double: "a number"
            case .string: "a string"
            }
        }

        /// Types a plain scalar by YAML 1.2's core schema (section 10.3.2).
        public static func resolve(plain text: String) -> Value {
            var text = text
            return text.withUTF8 { resolve(plainBytes: $0) }
        }

        /// Types plain scalar bytes by YAML 1.2's core schema.
        public static func resolve(plainBytes b: UnsafeBufferPointer<UInt8>) -> Value {
            guard let first = b.first else { return .null }
            // Only a scalar starting with one of these can be anything but a string.
            switch first {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                return resolveNumber(b)
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
                return isOneOf(b, ["null", "Null", "NULL", "~"]) ? .null : .string
            case UInt8(ascii: "t"), UInt8(ascii: "T"):
                return isOneOf(b, ["true", "True", "TRUE"]) ? .bool(true) : .string
            case UInt8(ascii: "f"), UInt8(ascii: "F"):
                return isOneOf(b, ["false", "False", "FALSE"]) ? .bool(false) : .string
            default:
                return .string
            }
        }

        private static func isOneOf(_ b: UnsafeBufferPointer<UInt8>, _ words: [StaticString]) -> Bool {
            for word in words where word.utf8CodeUnitCount == b.count {
                if UnsafeBufferPointer(start: word.utf8Start, count: b.count).elementsEqual(b) { return true }
            }
            return false
        }

        private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        private static func resolveNumber(_ b: UnsafeBufferPointer<UInt8>) -> Value {
            let n = b.count
            // 0x and 0o forms take no sign in the core schema.
            if n > 2 && b[0] == UInt8(ascii: "0") && (b[1] == UInt8(ascii: "x") || b[1] == UInt8(ascii: "o")) {
                let radix = b[1] == UInt8(ascii: "x") ? 16 : 8
                var value = 0
                for i in 2..<n {
                    guard let digit = hexValue(b[i]), digit < radix else { return .string }
                    let (m, o1) = value.multipliedReportingOverflow(by: radix)
                    let (s, o2) = m.addingReportingOverflow(digit)
                    if o1 || o2 { return .string }
                    value = s
                }
                return .int(value)
            }
            var i = 0
            var negative = false
            if b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+") {
                negative = b[0] == UInt8(ascii: "-")
                i = 1
            }
            // .inf / .nan
            if i < n && b[i] == UInt8(ascii: ".") && n - i == 4 {
                let rest = UnsafeBufferPointer(rebasing: b[(i + 1)...])
                if isOneOf(rest, ["inf", "Inf", "INF"]) { return .double(negative ? -.infinity : .infinity) }
                if i == 0 && isOneOf(rest, ["nan", "NaN", "NAN"]) { return .double(.nan) }
            }
            let digitsStart = i
            while i < n && isDigit(b[i]) { i += 1 }
            let intDigits = i - digitsStart
            if i == n {
                guard intDigits > 0 else { return .string }
                var value = 0
                var overflow = false
                for j in digitsStart..<n {
                    let (m, o1) = value.multipliedReportingOverflow(by: 10)
                    let (s, o2) = negative
                        ? m.subtractingReportingOverflow(Int(b[j] - 0x30))
                        : m.addingReportingOverflow(Int(b[j] - 0x30))
                    if o1 || o2 { overflow = true; break }
                    value = s
                }
                if !overflow { return .int(value) }
                return parseDouble(b).map(Value.double) ?? .string
            }
            // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
            var fractionDigits = 0
            if b[i] == UInt8(ascii: ".") {
                i += 1
                while i < n && isDigit(b[i]) { i += 1; fractionDigits += 1 }
                if intDigits == 0 && fractionDigits == 0 { return .string }
            } else if intDigits == 0 {
                return .string
            }
            if i < n && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
                i += 1
                if i < n && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
                let expStart = i
                while i < n && isDigit(b[i]) { i += 1 }
                if i == expStart { return .string }
            }
            guard i == n else { return .string }
            return parseDouble(b).map(Value.double) ?? .string
        }

        private static func parseDouble(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
            // Double's parser accepts every core-schema float form but a leading "+" and a bare trailing ".".
            var s = String(decoding: b, as: UTF8.self)
            if s.hasPrefix("+") { s.removeFirst() }
            if s.hasSuffix(".") { s.removeLast() }
            if s.hasPrefix(".") { s = "0" + s } else if s.hasPrefix("-.") { s = "-0" + s.dropFirst() }
            return Double(s)
        }

        private static func hexValue(_ c: UInt8) -> Int? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A")) + 10
            default: nil
            }
        }
    }
}
