/// When an override set now stops counting, as people write it: `--for 2h`, `--until 2026-12-01T09:00:00Z`, or the
/// admin API's `"expires_at"`. The command line, the REPL and the server check it here, with the same messages, and
/// write the remaining time the same way.
package enum ExpiryInput {
    /// A time that cannot be an override's expiry, with what is wrong in the user's words.
    package struct Problem: Error, Sendable, Equatable {
        /// What is wrong, naming the option or field.
        package var message: String

        /// A problem with its message.
        package init(message: String) {
            self.message = message
        }
    }

    /// The longest an override can be set for, by `--for`, `--until` or `expires_at`: 365 days.
    package static let longestDuration = 365.0 * 86_400

    /// The seconds of a duration: a whole number and a unit, `s`, `m`, `h` or `d` (`90s`, `30m`, `2h`, `7d`), more
    /// than 0 and at most 365 days.
    ///
    /// - Parameter name: how the user named it (`--for`), for the message.
    package static func seconds(ofDuration text: String, name: String = "--for") throws(Problem) -> Double {
        let unit = text.last.flatMap { unitSeconds[$0] }
        let negative = text.hasPrefix("-")
        let digits = text.dropLast().dropFirst(negative ? 1 : 0)
        guard let unit, !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else {
            throw Problem(message: "\(name) takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h "
                + "or 7d, not '\(text)'")
        }
        guard !negative else { throw Problem(message: "\(name) must be longer than 0, not '\(text)'") }
        // Past twelve digits, far past 365 days in any unit.
        guard digits.count <= 12, let count = Double(String(digits)) else {
            throw Problem(message: "\(name) is at most 365 days (365d), not '\(text)'")
        }
        let seconds = count * unit
        guard seconds > 0 else { throw Problem(message: "\(name) must be longer than 0, not '\(text)'") }
        guard seconds <= longestDuration else {
            throw Problem(message: "\(name) is at most 365 days (365d), not '\(text)'")
        }
        return seconds
    }

    /// The moment of an RFC 3339 time with its zone (`2026-12-01T09:00:00Z`, `2026-12-01T10:00:00+01:00`), in
    /// seconds since the epoch, when it is after `now` and at most 365 days after it, as `--for` is (a year typed
    /// wrong, 2062 for 2026, is refused rather than kept for decades).
    ///
    /// - Parameters:
    ///   - name: how the user named it (`--until`, `expires_at`), for the message.
    ///   - now: the time now, in seconds since the epoch; `-infinity` checks the form alone.
    package static func moment(of text: String, name: String = "--until", now: Double) throws(Problem) -> Double {
        let moment = try zonedMoment(of: text, name: name)
        guard moment > now, !now.isFinite || moment - now <= longestDuration else {
            let current = StoredOverride.time(secondsSinceEpoch: now)
            if moment <= now { throw Problem(message: "\(name) \(text) is in the past (it is \(current) now)") }
            throw Problem(message: "\(name) \(text) is more than 365 days away (it is \(current) now); an override "
                + "lasts at most 365 days")
        }
        return moment
    }

    /// The moment of an RFC 3339 time with its zone, in seconds since the epoch, at any distance from now: what
    /// `--until` and every `--at` (of the command line and the REPL) take; a problem saying what is wrong with any
    /// other text.
    package static func zonedMoment(of text: String, name: String) throws(Problem) -> Double {
        guard let moment = Timestamp.parseZoned(text) else {
            if Timestamp.parse(text) != nil {
                throw Problem(message: "\(name) needs a time zone: '\(text)' has none (add Z for UTC, or an offset "
                    + "such as +01:00)")
            }
            if Timestamp.looksZoned(text) {
                throw Problem(message: "\(name) '\(text)' is no real time: check the month (01–12), the day of the "
                    + "month, the hours (00–23), the minutes and the seconds (00–59), and the offset (up to ±23:59)")
            }
            throw Problem(message: "\(name) takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, "
                + "not '\(text)'")
        }
        return moment
    }

    /// The time left, as `explain`, `list` and the REPL write it: `2 d 3 h`, `1 h 59 min`, `4 min 30 s`, `45 s`,
    /// rounded to the nearest last unit shown (hours from a day on, minutes from an hour on), so that an override
    /// set `--for 2h` reads `2 h`, not `1 h 59 min`. (The console's script writes it the same way.)
    package static func remainingText(seconds: Double) -> String {
        guard seconds >= 1 else { return "less than 1 s" }
        // The coarsest unit whose rounding reaches its range: 59 min 50 s is `1 h`, not `59 min 50 s`.
        let rounded = { (unit: Double) in Int((seconds / unit).rounded() * unit) }
        let total = rounded(3_600) >= 86_400 ? rounded(3_600) : rounded(60) >= 3_600 ? rounded(60) : rounded(1)
        let (days, hours, minutes, secs) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60, total % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes > 0 { return secs > 0 ? "\(minutes) min \(secs) s" : "\(minutes) min" }
        return "\(secs) s"
    }

    /// `expires in 1 h 59 min`: an override's time left, from its expiry and the time now (seconds since the epoch).
    package static func expiresText(at expiry: Double, now: Double) -> String {
        "expires in " + remainingText(seconds: expiry - now)
    }

    private static let unitSeconds: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
