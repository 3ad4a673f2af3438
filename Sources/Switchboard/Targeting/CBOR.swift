/// Where canonical CBOR bytes go: an array, or straight into a hash so bucketing never builds a byte array.
protocol CBORSink {
    /// Appends one byte.
    mutating func write(_ byte: UInt8)
    /// Appends bytes.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

extension MurmurHash3: CBORSink {
    mutating func write(_ byte: UInt8) { combine(byte) }
    mutating func write(_ bytes: UnsafeRawBufferPointer) { combine(bytes) }
}

/// Collects CBOR bytes in an array (tests, and sorting object keys).
struct CBORBytes: CBORSink {
    var bytes: [UInt8] = []
    mutating func write(_ byte: UInt8) { bytes.append(byte) }
    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
}

/// The deterministic CBOR encoding of values that flagd's `@fractional-v3` bucketing hashes
/// (RFC 8949 section 4.2.1, core deterministic encoding, with flagd's number normalization).
///
/// flagd's rules, which every provider follows so buckets agree across languages:
/// - A number with no fractional part in [-2^63, 2^64-1] is an integer (major type 0 or 1), whatever its
///   source type: `1.0`, `1` and `-0.0` hash alike. Other numbers are floats in the shortest of half,
///   single and double precision that holds them exactly.
/// - Object keys are ordered by the bytewise order of their encodings.
/// - Strings are UTF-8 text (major type 3); lists are major type 4; `null`, `true`, `false` are simple values.
enum CanonicalCBOR {
    /// The encoding as bytes.
    static func encode(_ value: Value) -> [UInt8] {
        var sink = CBORBytes()
        encode(value, into: &sink)
        return sink.bytes
    }

    /// Writes the encoding of a value.
    static func encode(_ value: Value, into sink: inout some CBORSink) {
        switch value {
        case .null:
            sink.write(0xF6)
        case .bool(let flag):
            sink.write(flag ? 0xF5 : 0xF4)
        case .int(let number):
            encode(integer: number, into: &sink)
        case .double(let number):
            encode(number: number, into: &sink)
        case .string(let text):
            encode(text: text, into: &sink)
        case .list(let items):
            writeHead(major: 4, UInt64(items.count), into: &sink)
            for item in items { encode(item, into: &sink) }
        case .object(let members):
            writeHead(major: 5, UInt64(members.count), into: &sink)
            // Deterministic order is by encoded key; a key's encoding is its length head then its bytes.
            let keys = members.keys.map { key in
                var keySink = CBORBytes()
                encode(text: key, into: &keySink)
                return (key, keySink.bytes)
            }.sorted { $0.1.lexicographicallyPrecedes($1.1) }
            for (key, encodedKey) in keys {
                encodedKey.withUnsafeBytes { sink.write($0) }
                encode(members[key]!, into: &sink)
            }
        }
    }

    /// Writes a text string: a length head, then the UTF-8 bytes.
    static func encode(text: String, into sink: inout some CBORSink) {
        var text = text
        text.withUTF8 { utf8 in
            writeHead(major: 3, UInt64(utf8.count), into: &sink)
            sink.write(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Writes an integer as major type 0 (unsigned) or 1 (negative, encoded as -1 - n).
    static func encode(integer: Int, into sink: inout some CBORSink) {
        if integer >= 0 {
            writeHead(major: 0, UInt64(integer), into: &sink)
        } else {
            writeHead(major: 1, UInt64(bitPattern: Int64(-1 - integer)), into: &sink)
        }
    }

    /// Writes a number after flagd's normalization: integral values in range become integers.
    static func encode(number: Double, into sink: inout some CBORSink) {
        if number.isFinite && number == number.rounded(.towardZero) {
            // 2^64 is exactly representable; every double below it converts to UInt64 without trapping.
            if number >= 0 && number < 18_446_744_073_709_551_616.0 {
                writeHead(major: 0, UInt64(number), into: &sink)
                return
            }
            if number < 0 && number >= -9_223_372_036_854_775_808.0 {
                writeHead(major: 1, UInt64(bitPattern: -1 - Int64(number)), into: &sink)
                return
            }
        }
        encode(float: number, into: &sink)
    }

    /// Writes a float in the shortest IEEE 754 width that holds it exactly (preferred serialization).
    static func encode(float number: Double, into sink: inout some CBORSink) {
        if number.isNaN {
            sink.write(0xF9)
            sink.write(0x7E)
            sink.write(0x00)
            return
        }
        let single = Float(number)
        if Double(single) == number {
            if let half = halfBits(single) {
                sink.write(0xF9)
                sink.write(UInt8(half >> 8))
                sink.write(UInt8(half & 0xFF))
                return
            }
            sink.write(0xFA)
            writeBigEndian(UInt64(single.bitPattern), byteCount: 4, into: &sink)
            return
        }
        sink.write(0xFB)
        writeBigEndian(number.bitPattern, byteCount: 8, into: &sink)
    }

    /// The binary16 bits of a float when it converts to half precision without loss.
    ///
    /// Done by hand on the bit pattern because `Float16` is not available on every platform Swift runs on.
    static func halfBits(_ value: Float) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16((bits >> 16) & 0x8000)
        let exponent = Int((bits >> 23) & 0xFF)
        let mantissa = bits & 0x7F_FFFF
        if exponent == 0xFF {
            return mantissa == 0 ? sign | 0x7C00 : nil
        }
        if exponent == 0 {
            // Zero fits; single-precision subnormals are far below half's smallest subnormal.
            return mantissa == 0 ? sign : nil
        }
        let unbiased = exponent - 127
        if unbiased >= -14 && unbiased <= 15 {
            guard mantissa & 0x1FFF == 0 else { return nil }
            return sign | UInt16(unbiased + 15) << 10 | UInt16(mantissa >> 13)
        }
        if unbiased >= -24 && unbiased < -14 {
            // A half subnormal is m * 2^-24; the significand must lose no set bits when shifted down to m.
            let significand = mantissa | 0x80_0000
            let shift = UInt32(-unbiased - 1)
            guard significand & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(significand >> shift)
        }
        return nil
    }

    /// Writes a major type and its argument in the shortest form.
    static func writeHead(major: UInt8, _ argument: UInt64, into sink: inout some CBORSink) {
        let type = major << 5
        switch argument {
        case 0..<24:
            sink.write(type | UInt8(argument))
        case 24...0xFF:
            sink.write(type | 24)
            sink.write(UInt8(argument))
        case 0x100...0xFFFF:
            sink.write(type | 25)
            writeBigEndian(argument, byteCount: 2, into: &sink)
        case 0x1_0000...0xFFFF_FFFF:
            sink.write(type | 26)
            writeBigEndian(argument, byteCount: 4, into: &sink)
        default:
            sink.write(type | 27)
            writeBigEndian(argument, byteCount: 8, into: &sink)
        }
    }

    private static func writeBigEndian(_ value: UInt64, byteCount: Int, into sink: inout some CBORSink) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            sink.write(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
