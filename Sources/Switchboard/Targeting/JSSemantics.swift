#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// JavaScript's coercion rules over ``Value``, as json-logic-js applies them.
///
/// flagd's targeting language is JSONLogic as json-logic-js defines it, so truthiness, `==`, `<`, string
/// conversion and number parsing must match JavaScript, including its odd corners (`"" == 0`, `[] < 1`,
/// `"10" < "9"`). Ints and doubles are both JavaScript numbers here. Arrays and objects compare by content
/// where JavaScript would compare references (two separately written `[1]` are `==` here, not in JS): a rule
/// cannot observe identity in any other way, and comparing contents is what a rule's author means.
enum JS {
    // MARK: Truthiness

    /// json-logic-js truthiness: JavaScript's, except that an empty array is false.
    static func truthy(_ value: Value) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .double(let number): !(number == 0 || number.isNaN)
        case .string(let text): !text.isEmpty
        case .list(let items): !items.isEmpty
        case .object: true
        }
    }

    // MARK: Numbers

    /// A JavaScript number as a value: integral results within 2^53 become `.int`, so `1 + 2` is `3`, not `3.0`.
    static func number(_ double: Double) -> Value {
        if double == double.rounded(.towardZero) && abs(double) <= 9_007_199_254_740_992 {
            return .int(Int(double))  // also turns -0 into 0, which JSON cannot tell apart anyway
        }
        return .double(double)
    }

    /// ToNumber. `nil` stands for `undefined` (a missing argument), which is NaN.
    static func toNumber(_ value: Value?) -> Double {
        guard let value else { return .nan }
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .string(let text): return stringToNumber(text)
        case .list, .object: return stringToNumber(toString(value))
        }
    }

    /// JavaScript's `Number(string)`: the whole trimmed text must be a numeric literal; empty is 0.
    static func stringToNumber(_ text: String) -> Double {
        let bytes = trimmed(Array(text.utf8))
        if bytes.isEmpty { return 0 }
        // The slice keeps the indices of the untrimmed text: offsets count from its start, never from 0.
        let start = bytes.startIndex
        if bytes.count > 2 && bytes[start] == UInt8(ascii: "0") {
            let radix: Int? = switch bytes[start + 1] | 0x20 {
            case UInt8(ascii: "x"): 16
            case UInt8(ascii: "o"): 8
            case UInt8(ascii: "b"): 2
            default: nil
            }
            if let radix {
                var value = 0.0
                for byte in bytes[(start + 2)...] {
                    guard let digit = digitValue(byte), digit < radix else { return .nan }
                    value = value * Double(radix) + Double(digit)
                }
                return value
            }
        }
        guard let (value, length) = decimalPrefix(bytes[...]), length == bytes.count else { return .nan }
        return value
    }

    /// JavaScript's `parseFloat`: the longest decimal prefix after leading whitespace, or NaN.
    static func parseFloat(_ value: Value) -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default:
            let bytes = trimmed(Array(toString(value).utf8), trailing: false)
            return decimalPrefix(bytes[...])?.value ?? .nan
        }
    }

    /// The longest prefix matching JavaScript's StrDecimalLiteral (`Infinity` included), and its length.
    private static func decimalPrefix(_ bytes: ArraySlice<UInt8>) -> (value: Double, length: Int)? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let infinity = Array("Infinity".utf8)
        if bytes[index...].starts(with: infinity) {
            return (negative ? -.infinity : .infinity, index + infinity.count - bytes.startIndex)
        }
        let digitsStart = index
        while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
        var mantissaDigits = index - digitsStart
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            let afterPoint = index + 1
            var cursor = afterPoint
            while cursor < bytes.endIndex, isDigit(bytes[cursor]) { cursor += 1 }
            mantissaDigits += cursor - afterPoint
            if mantissaDigits > 0 { index = cursor }
        }
        guard mantissaDigits > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var cursor = index + 1
            if cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            let exponentStart = cursor
            while cursor < bytes.endIndex, isDigit(bytes[cursor]) { cursor += 1 }
            if cursor > exponentStart { index = cursor }
        }
        var text = String(decoding: bytes[bytes.startIndex..<index], as: UTF8.self)
        // Swift's parser rejects a bare trailing or leading point that JavaScript allows ("1.", ".5").
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        if text.hasPrefix(".") || text.hasPrefix("-.") {
            text = text.replacingFirst(".", with: "0.")
        }
        guard let value = Double(text) else { return nil }
        return (value, index - bytes.startIndex)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - 0x61) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - 0x41) + 10
        default: nil
        }
    }

    /// Strips JavaScript white space and line terminators (the ASCII ones, NBSP, BOM and U+2028/9).
    private static func trimmed(_ bytes: [UInt8], trailing: Bool = true) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        func whitespaceLength(at index: Int) -> Int {
            let byte = slice[index]
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { return 1 }
            if byte == 0xC2, index + 1 < slice.endIndex, slice[index + 1] == 0xA0 { return 2 }
            if index + 2 < slice.endIndex {
                let (b1, b2) = (slice[index + 1], slice[index + 2])
                if byte == 0xEF && b1 == 0xBB && b2 == 0xBF { return 3 }
                if byte == 0xE2 && b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9) { return 3 }
            }
            return 0
        }
        while !slice.isEmpty {
            let length = whitespaceLength(at: slice.startIndex)
            if length == 0 { break }
            slice = slice.dropFirst(length)
        }
        if trailing {
            while let last = slice.last, last == 0x20 || (last >= 0x09 && last <= 0x0D) {
                slice = slice.dropLast()
            }
        }
        return slice
    }

    // MARK: Strings

    /// ToString, as `String(x)` does: `null` is `"null"`, arrays join their items with commas
    /// (`null` items as empty), objects are `"[object Object]"`, numbers print as JavaScript prints them.
    static func toString(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): numberToString(number)
        case .string(let text): text
        case .list(let items): items.map { $0 == .null ? "" : toString($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// JavaScript's Number::toString: shortest round-trip digits, plain notation from 1e-7 up to 1e21.
    static func numberToString(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        if number == number.rounded(.towardZero) && abs(number) < 1e18 { return String(Int64(number)) }
        // Swift's description has the same shortest digits; only the layout differs.
        let text = String(abs(number))
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.first, byte != UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        if bytes.first == UInt8(ascii: "e") {
            exponent = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) ?? 0
        }
        var n = (pointPosition ?? digits.count) + exponent
        while digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        let digitText = String(decoding: digits, as: UTF8.self)
        var result = number < 0 ? "-" : ""
        if k <= n && n <= 21 {
            result += digitText + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            result += String(digitText.prefix(n)) + "." + String(digitText.dropFirst(n))
        } else if -6 < n && n <= 0 {
            result += "0." + String(repeating: "0", count: -n) + digitText
        } else {
            let e = n - 1
            result += String(digitText.prefix(1))
            if k > 1 { result += "." + String(digitText.dropFirst()) }
            result += "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return result
    }

    /// String equality by UTF-16 code units, as JavaScript compares (Swift's `==` also equates canonically
    /// equivalent strings, such as a precomposed and a decomposed "é").
    @inline(__always)
    static func stringsEqual(_ lhs: String, _ rhs: String) -> Bool {
        // Native strings know their UTF-8 length: most unequal strings differ there, without a comparison.
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { l in
            rhs.withUTF8 { r in
                l.count == r.count && (l.isEmpty || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0)
            }
        }
    }

    /// Whether `text` starts (or ends) with `affix`, comparing UTF-8 bytes.
    static func hasAffix(_ text: String, _ affix: String, isPrefix: Bool) -> Bool {
        var text = text
        var affix = affix
        return text.withUTF8 { t in
            affix.withUTF8 { a in
                guard a.count <= t.count else { return false }
                guard !a.isEmpty else { return true }
                return memcmp(t.baseAddress! + (isPrefix ? 0 : t.count - a.count), a.baseAddress!, a.count) == 0
            }
        }
    }

    /// Relational string order by UTF-16 code units, as JavaScript orders strings.
    static func stringLess(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    // MARK: Comparison

    /// Abstract equality, `==`. `nil` is `undefined`, which equals only `null` and itself.
    static func looseEquals(_ lhs: Value?, _ rhs: Value?) -> Bool {
        guard let lhs, let rhs else {
            return (lhs ?? .null) == .null && (rhs ?? .null) == .null
        }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.int(let l), .int(let r)): return l == r
        case (.int, .double), (.double, .int), (.double, .double): return toNumber(lhs) == toNumber(rhs)
        case (.string(let l), .string(let r)): return stringsEqual(l, r)
        case (.bool(let l), .bool(let r)): return l == r
        case (.bool, _): return looseEquals(.double(toNumber(lhs)), rhs)
        case (_, .bool): return looseEquals(lhs, .double(toNumber(rhs)))
        case (.int, .string), (.double, .string), (.string, .int), (.string, .double):
            return toNumber(lhs) == toNumber(rhs)
        case (.list, .list), (.object, .object), (.list, .object), (.object, .list):
            return strictEquals(lhs, rhs)
        case (.list, _), (.object, _): return looseEquals(.string(toString(lhs)), rhs)
        case (_, .list), (_, .object): return looseEquals(lhs, .string(toString(rhs)))
        }
    }

    /// Strict equality, `===`: same type (ints and doubles are both numbers) and same value; NaN is unequal.
    static func strictEquals(_ lhs: Value?, _ rhs: Value?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let l), .bool(let r)): return l == r
        case (.int(let l), .int(let r)): return l == r
        case (.int, .double), (.double, .int), (.double, .double): return toNumber(lhs) == toNumber(rhs)
        case (.string(let l), .string(let r)): return stringsEqual(l, r)
        case (.list(let l), .list(let r)):
            return l.count == r.count && zip(l, r).allSatisfy { strictEquals($0, $1) }
        case (.object(let l), .object(let r)):
            return l.count == r.count && l.allSatisfy { key, value in r[key].map { strictEquals(value, $0) } ?? false }
        default: return false
        }
    }

    /// Abstract relational comparison `lhs < rhs`: `nil` when undefined (a NaN was involved), which makes
    /// every relational operator false.
    static func less(_ lhs: Value?, _ rhs: Value?) -> Bool? {
        if case .int(let l)? = lhs, case .int(let r)? = rhs { return l < r }
        let left = primitive(lhs)
        let right = primitive(rhs)
        if case .string(let l)? = left, case .string(let r)? = right { return stringLess(l, r) }
        let l = toNumber(left)
        let r = toNumber(right)
        if l.isNaN || r.isNaN { return nil }
        return l < r
    }

    /// ToPrimitive: arrays and objects become their string form; everything else stays.
    private static func primitive(_ value: Value?) -> Value? {
        switch value {
        case .list?, .object?: .string(toString(value!))
        default: value
        }
    }

    /// `<`
    static func lessThan(_ lhs: Value?, _ rhs: Value?) -> Bool { less(lhs, rhs) ?? false }
    /// `>`
    static func greaterThan(_ lhs: Value?, _ rhs: Value?) -> Bool { less(rhs, lhs) ?? false }
    /// `<=`, which JavaScript defines as "not greater", false when undefined.
    static func lessOrEqual(_ lhs: Value?, _ rhs: Value?) -> Bool { less(rhs, lhs).map { !$0 } ?? false }
    /// `>=`
    static func greaterOrEqual(_ lhs: Value?, _ rhs: Value?) -> Bool { less(lhs, rhs).map { !$0 } ?? false }

    // MARK: Substrings

    /// Whether `haystack` contains `needle` as a run of code units (`String.prototype.indexOf` ≠ -1).
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        if needle.isEmpty { return true }
        let hay = Array(haystack.utf8)
        let pin = Array(needle.utf8)
        guard pin.count <= hay.count else { return false }
        for start in 0...(hay.count - pin.count) where hay[start] == pin[0] {
            if hay[start..<start + pin.count].elementsEqual(pin) { return true }
        }
        return false
    }

    /// `String.prototype.substr(start, length)` over UTF-16 code units, as json-logic-js's `substr` uses it,
    /// including its negative-length form ("all but the last n").
    static func substr(_ source: String, start: Value?, length: Value?) -> String {
        let units = Array(source.utf16)
        let count = units.count
        func integer(_ value: Value?) -> Double {
            let number = toNumber(value)
            return number.isNaN ? 0 : number.rounded(.towardZero)
        }
        var from = integer(start)
        from = from < 0 ? max(Double(count) + from, 0) : min(from, Double(count))
        let begin = Int(from)
        var end = count
        if let length {
            let lengthNumber = toNumber(length)
            if lengthNumber < 0 {
                // json-logic-js: take substr(start), then drop the last |length| units of that.
                let keep = (Double(count - begin) + lengthNumber).rounded(.towardZero)
                end = begin + Int(max(0, keep))
            } else {
                let take = lengthNumber.isNaN ? 0 : min(lengthNumber.rounded(.towardZero), Double(count))
                end = min(count, begin + Int(take))
            }
        }
        guard begin < end else { return "" }
        return String(decoding: units[begin..<end], as: UTF16.self)
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
