import Foundation

/// Dates in rules: ISO 8601 text or Unix seconds, as seconds since the epoch.
package enum Timestamp {
    /// `2026-12-01`, `2026-12-01T10:00:00Z`, `2026-12-01T10:00:00.5+02:00`, or a number of Unix seconds.
    static func seconds(_ value: Value) -> Double? {
        switch value {
        case .int(let seconds): return Double(seconds)
        case .double(let seconds): return seconds
        case .string(let text): return parse(text)
        default: return nil
        }
    }

    /// An RFC 3339 time with its zone (`2026-12-01T09:00:00Z`, `2026-12-01T10:00:00+01:00`), as seconds since the
    /// epoch; `nil` for anything else, a time without a zone included: a schedule step, `--until` and
    /// `expires_at` name one instant everywhere. As RFC 3339 allows, `t` and `z` may be lowercase and a space may
    /// stand for the `T` (`2026-12-01 09:00:00Z`).
    package static func parseZoned(_ text: String) -> Double? {
        hasZonedForm(text) ? parse(text) : nil
    }

    /// Whether `text` is written as a time with a zone, digit for digit (`dddd-dd-ddTdd:dd:dd`, a fraction, then
    /// `Z` or `±dd:dd`), whatever its numbers: what tells `2026-02-30T10:00:00Z` (no such day) from a text that is
    /// no time at all.
    package static func looksZoned(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard hasZonedForm(text) else { return false }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { isDigit(bytes, $0) } }
        func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool { isByte(bytes, index, character) }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), digits(11..<13),
              byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19)
        else { return false }
        var index = 19
        if byte(index, ".") {
            let start = index + 1
            index = start
            while digits(index..<(index + 1)) { index += 1 }
            guard index > start else { return false }
        }
        if index == bytes.count - 1 { return byte(index, "Z") || byte(index, "z") }
        return index == bytes.count - 6 && (byte(index, "+") || byte(index, "-")) && digits((index + 1)..<(index + 3))
            && byte(index + 3, ":") && digits((index + 4)..<(index + 6))
    }

    /// Whether `bytes` has an ASCII digit at `index`.
    private static func isDigit(_ bytes: [UInt8], _ index: Int) -> Bool {
        index < bytes.count && (0x30...0x39).contains(bytes[index])
    }

    /// Whether `bytes` has `character` at `index`.
    private static func isByte(_ bytes: [UInt8], _ index: Int, _ character: Unicode.Scalar) -> Bool {
        index < bytes.count && bytes[index] == UInt8(ascii: character)
    }

    /// A date and time separator at the 11th byte, and a zone at the end (`Z`, or an offset such as `+01:00`).
    private static func hasZonedForm(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, isDateTimeSeparator(bytes[10]), let last = bytes.last else { return false }
        return last == UInt8(ascii: "Z") || last == UInt8(ascii: "z")
            || bytes[bytes.count - 6] == UInt8(ascii: "+") || bytes[bytes.count - 6] == UInt8(ascii: "-")
    }

    /// A moment as people read it in a timeline: `2026-12-03 09:00 UTC` (seconds shown when not zero).
    package static func display(_ seconds: Double) -> String {
        let iso = Clock.timestamp(secondsSinceEpoch: seconds)  // 2026-12-03T09:00:00.000Z
        let minutes = iso.prefix(16).replacingOccurrences(of: "T", with: " ")
        let second = iso.dropFirst(17).prefix(2)
        return minutes + (second == "00" ? "" : ":" + second) + " UTC"
    }

    /// `T`, `t` or a space, between the date and the time.
    private static func isDateTimeSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: " ")
    }

    /// `2026-12-01`, or a date and time as RFC 3339 writes them (`2026-12-01T10:00:00`, with an optional fraction of
    /// at least one digit and an optional zone: `Z` or an offset from `-23:59` to `+23:59`), as seconds since the
    /// epoch; `nil` for anything else. Every field is exactly its digits: no sign, no space, no missing separator.
    /// Seconds stop at 59, as JavaScript's `Date` (the console) reads them: a leap second names no moment here.
    static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool { Self.isDigit(bytes, index) }
        func isByte(_ index: Int, _ character: Unicode.Scalar) -> Bool { Self.isByte(bytes, index, character) }
        guard bytes.count >= 10, (0..<4).allSatisfy(isDigit), isByte(4, "-"), isDigit(5), isDigit(6), isByte(7, "-"),
              isDigit(8), isDigit(9), let day = Day(String(decoding: bytes[0..<10], as: UTF8.self))
        else { return nil }
        var seconds = Double(day.daysSinceEpoch) * 86_400
        guard bytes.count > 10 else { return seconds }
        /// The two digits at `index`, as a number.
        func twoDigits(_ index: Int) -> Int? {
            guard isDigit(index), isDigit(index + 1) else { return nil }
            return Int(bytes[index] - 0x30) * 10 + Int(bytes[index + 1] - 0x30)
        }
        guard isDateTimeSeparator(bytes[10]), isByte(13, ":"), isByte(16, ":"),
              let hour = twoDigits(11), let minute = twoDigits(14), let second = twoDigits(17),
              hour < 24, minute < 60, second < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second)
        var index = 19
        if isByte(index, ".") {
            let start = index
            index += 1
            while isDigit(index) { index += 1 }
            guard index > start + 1 else { return nil }
            seconds += Double("0" + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
        }
        guard index < bytes.count else { return seconds }
        if isByte(index, "Z") || isByte(index, "z") {
            return index + 1 == bytes.count ? seconds : nil
        }
        guard bytes.count == index + 6, isByte(index, "+") || isByte(index, "-"), isByte(index + 3, ":"),
              let offsetHours = twoDigits(index + 1), let offsetMinutes = twoDigits(index + 4),
              offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = Double(offsetHours * 3600 + offsetMinutes * 60)
        return isByte(index, "+") ? seconds - offset : seconds + offset
    }
}
