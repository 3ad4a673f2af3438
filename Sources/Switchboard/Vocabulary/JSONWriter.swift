/// The one JSON writer: compact, object keys sorted (equal values give equal bytes), doubles with a decimal point
/// or exponent, written as bytes. ``Value/json``, the stores, the remote cache and the server's OFREP bodies all
/// write through it.
///
/// A bulk evaluation writes about a hundred kilobytes; appending to a `String` scalar by scalar cost more than
/// evaluating the thousand flags. Here a string without characters to escape — nearly every key and value — is
/// copied in one go, into a plain byte array (a NIO `ByteBuffer` checks exclusive access on every small write),
/// which becomes a response's buffer with one copy at the end.
package struct JSONWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends text that is already JSON, such as `{"key":`.
    package mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends text that is already JSON. (Labelled, so that a literal picks the `StaticString` overload, which
    /// copies without decoding.)
    package mutating func raw(contentsOf text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a string literal with the escapes JSON requires.
    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: Self.needsEscape) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                guard Self.needsEscape(byte) else {
                    bytes.append(byte)
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case UInt8(ascii: "\n"): raw("\\n")
                case UInt8(ascii: "\r"): raw("\\r")
                case UInt8(ascii: "\t"): raw("\\t")
                default:
                    let hex = String(byte, radix: 16)
                    raw(contentsOf: "\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a value.
    package mutating func value(_ value: Value) {
        switch value {
        case .null: raw("null")
        case .bool(let bool): bool ? raw("true") : raw("false")
        case .int(let int): raw(contentsOf: String(int))
        case .double(let double): raw(contentsOf: Value.jsonNumber(double))
        case .string(let string): self.string(string)
        case .list(let items):
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                self.value(item)
            }
            raw("]")
        case .object(let members):
            object(members)
        }
    }

    /// Appends an object, keys sorted so that equal objects give equal bytes.
    package mutating func object(_ members: [String: Value]) {
        raw("{")
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { raw(",") }
            string(key)
            raw(":")
            value(members[key]!)
        }
        raw("}")
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
