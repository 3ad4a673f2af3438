/// A calendar day, as written in `expires: 2027-03-01`.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Parses `YYYY-MM-DD`, checking that the day exists (no February 30th).
    public init?(_ text: String) {
        // The usual form, ten ASCII bytes, read without splitting the text (every definition's `expires` comes here);
        // anything else takes the general path below, which accepts exactly what it always did.
        let digits: (year: Int, month: Int, day: Int)?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            var number = 0
            var parts: (Int, Int, Int) = (0, 0, 0)
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 7 {
                    if offset == 4 { parts.0 = number } else { parts.1 = number }
                    number = 0
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
            }
            parts.2 = number
            return parts
        }
        if let (year, month, day) = digits ?? nil {
            guard (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year) else { return nil }
            self.year = year
            self.month = month
            self.day = day
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates a day from its parts; the caller checks them.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Today in UTC.
    public static func today() -> Day {
        Day(daysSinceEpoch: Int(Clock.secondsSinceEpoch()) / 86_400)
    }

    /// The day a number of days after 1970-01-01 (Howard Hinnant's civil-from-days).
    public init(daysSinceEpoch: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Chronological order.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
