/// JSON text for values: compact, object keys sorted so equal values give equal bytes, and doubles always
/// with a decimal point or exponent (`1.0`, never `1`) so strict clients keep the type.
extension Value {
    /// The value as compact JSON.
    public var json: String {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        return writer.text
    }

    /// Appends the value as compact JSON.
    public func writeJSON(to out: inout String) {
        out += json
    }

    /// A double as JSON: integral values keep `.0`; NaN and infinities, which JSON lacks, become `null`.
    static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = String(value)  // shortest round-trip form: "1.0", "0.1", "1e+100"
        return text
    }

    /// Appends a JSON string literal with the escapes JSON requires.
    public static func writeJSONString(_ string: String, to out: inout String) {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.string(string)
        out += writer.text
    }

    /// Parses JSON text. Numbers without a fraction or exponent that fit in 64 bits become `.int`.
    ///
    /// - Throws: ``JSONError`` with the 1-based line and column of the first mistake.
    public init(json text: String) throws(JSONError) {
        try self.init(jsonBytes: Array(text.utf8))
    }

    /// Parses JSON bytes.
    public init(jsonBytes bytes: [UInt8]) throws(JSONError) {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<Value, JSONError> in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}

/// A JSON syntax error, with its position.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// A small strict JSON parser (RFC 8259, with I-JSON's unique keys) that keeps integers and doubles apart.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONError) -> Value {
        // A byte order mark before the text: RFC 8259 lets a parser ignore it, and some writers add one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String) -> JSONError {
        var line = 1
        var column = 1
        for i in 0..<min(index, bytes.count) {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONError(message: message, line: line, column: column)
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
            || bytes[index] == 0x09
        {
            index += 1
        }
    }

    mutating func expect(_ literal: StaticString, _ value: Value) throws(JSONError) -> Value {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
              UnsafeBufferPointer(start: literal.utf8Start, count: count)
                  .elementsEqual(UnsafeBufferPointer(rebasing: bytes[index..<index + count]))
        else { throw error("invalid literal") }
        index += count
        return value
    }

    mutating func parseValue() throws(JSONError) -> Value {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > 256 { throw error("nesting deeper than 256 levels") }
    }

    mutating func parseObject() throws(JSONError) -> Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [String: Value] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = index
            let key = try parseString()
            // Which of two would count is up to each reader (RFC 8259 §4); I-JSON (RFC 7493) forbids them.
            if members[key] != nil {
                index = keyStart
                throw error("the key \(Message.quoted(key)) appears twice in this object")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    mutating func parseArray() throws(JSONError) -> Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [Value] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .list(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return .list(items)
        }
    }

    mutating func parseString() throws(JSONError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        var highBits: UInt8 = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw error("control character in a string") }
            highBits |= bytes[index]
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            let text = try utf8(UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: highBits < 0x80, at: start)
            index += 1
            return text
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let text = try scalars.withUnsafeBufferPointer { buffer throws(JSONError) in
                    try utf8(buffer, ascii: false, at: start)
                }
                index += 1
                return text
            }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") {
                scalars.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                          bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(contentsOf: UTF8.encode(scalar)!)
            default:
                throw error("invalid escape")
            }
        }
    }

    /// A string's bytes as text; invalid UTF-8 (a stray continuation byte, an overlong or cut-short sequence) is
    /// refused at the string's start (`start`) rather than decoded into replacement characters, so that no two
    /// different bodies read as the same text.
    mutating func utf8(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool, at start: Int) throws(JSONError) -> String {
        if ascii { return String(decoding: text, as: UTF8.self) }
        guard let string = String(validating: text, as: UTF8.self) else {
            index = start - 1
            throw error("invalid UTF-8 in a string")
        }
        return string
    }

    mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - 0x41 + 10)
            default: throw error("invalid \\u escape")
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    mutating func parseNumber() throws(JSONError) -> Value {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, p.bytes[p.index] >= 0x30, p.bytes[p.index] <= 0x39 { p.index += 1 }
            return p.index - s
        }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("invalid number") }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in a number") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw error("invalid number") }
        return .double(value)
    }
}
