import Testing
@testable import Switchboard

/// `--for`, `--until` and `expires_at` as people write them, checked in one place with one set of messages, and
/// the time left as every face writes it.
struct ExpiryInputTests {
    @Test(arguments: [("90s", 90.0), ("30m", 1_800), ("2h", 7_200), ("7d", 604_800), ("365d", 31_536_000)])
    func durations(text: String, seconds: Double) throws {
        #expect(try ExpiryInput.seconds(ofDuration: text) == seconds)
    }

    @Test(arguments: [
        ("2", "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '2'"),
        ("h", "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not 'h'"),
        ("1.5h", "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '1.5h'"),
        ("-2h", "--for must be longer than 0, not '-2h'"),
        ("-h", "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '-h'"),
        ("2w", "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '2w'"),
        ("0s", "--for must be longer than 0, not '0s'"),
        ("366d", "--for is at most 365 days (365d), not '366d'"),
        ("8761h", "--for is at most 365 days (365d), not '8761h'"),
        ("99999999999999999999d", "--for is at most 365 days (365d), not '99999999999999999999d'"),
    ])
    func badDurations(text: String, message: String) {
        #expect(throws: ExpiryInput.Problem(message: message)) { try ExpiryInput.seconds(ofDuration: text) }
    }

    static let now = Timestamp.parse("2026-12-01T09:00:00Z")!

    @Test func momentsWithAZone() throws {
        #expect(try ExpiryInput.moment(of: "2026-12-01T09:00:01Z", now: Self.now) == Self.now + 1)
        #expect(try ExpiryInput.moment(of: "2026-12-01T11:00:00+01:00", now: Self.now) == Self.now + 3_600)
        // RFC 3339 lets `t` and `z` be lowercase and a space stand for the `T`.
        #expect(try ExpiryInput.moment(of: "2026-12-01 10:00:00Z", now: Self.now) == Self.now + 3_600)
        #expect(try ExpiryInput.moment(of: "2026-12-01t10:00:00z", now: Self.now) == Self.now + 3_600)
        // As far as --for goes: 365 days, and not a second more.
        #expect(try ExpiryInput.moment(of: "2027-12-01T09:00:00Z", now: Self.now) == Self.now + 31_536_000)
    }

    @Test(arguments: [
        ("2026-12-01T10:00:00", "--until needs a time zone: '2026-12-01T10:00:00' has none (add Z for UTC, or an "
            + "offset such as +01:00)"),
        ("tomorrow", "--until takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, not 'tomorrow'"),
        // Written as a time, but no such moment: not called "no RFC 3339 time".
        ("2027-02-30T10:00:00Z", "--until '2027-02-30T10:00:00Z' is no real time: check the month (01–12), the day "
            + "of the month, the hours (00–23), the minutes and the seconds (00–59), and the offset (up to ±23:59)"),
        ("2026-12-02T25:00:00.5+01:00", "--until '2026-12-02T25:00:00.5+01:00' is no real time: check the month "
            + "(01–12), the day of the month, the hours (00–23), the minutes and the seconds (00–59), and the offset (up to ±23:59)"),
        ("2026-13-02T10:00:00z", "--until '2026-13-02T10:00:00z' is no real time: check the month (01–12), the day "
            + "of the month, the hours (00–23), the minutes and the seconds (00–59), and the offset (up to ±23:59)"),
        // An offset past ±23:59 names no zone.
        ("2027-01-01T10:00:00+25:00", "--until '2027-01-01T10:00:00+25:00' is no real time: check the month "
            + "(01–12), the day of the month, the hours (00–23), the minutes and the seconds (00–59), and the offset "
            + "(up to ±23:59)"),
        // Not written as a time: the form is what is wrong.
        ("2027-01-01T10:00:00.Z", "--until takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, not "
            + "'2027-01-01T10:00:00.Z'"),
        ("2027-01-01T10-00-00Z", "--until takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, not "
            + "'2027-01-01T10-00-00Z'"),
        ("2026-12-0xT10:00:00Z", "--until takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, not "
            + "'2026-12-0xT10:00:00Z'"),
        ("2027-01-01T10:00:00-:0:00", "--until takes an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z, "
            + "not '2027-01-01T10:00:00-:0:00'"),
        ("2026-12-01T09:00:00Z", "--until 2026-12-01T09:00:00Z is in the past (it is 2026-12-01T09:00:00.000Z now)"),
        ("2026-12-01T09:30:00+01:00", "--until 2026-12-01T09:30:00+01:00 is in the past (it is "
            + "2026-12-01T09:00:00.000Z now)"),
        ("2026-12-01 10:00:00", "--until needs a time zone: '2026-12-01 10:00:00' has none (add Z for UTC, or an "
            + "offset such as +01:00)"),
        ("2027-12-01T09:00:01Z", "--until 2027-12-01T09:00:01Z is more than 365 days away (it is "
            + "2026-12-01T09:00:00.000Z now); an override lasts at most 365 days"),
    ])
    func badMoments(text: String, message: String) {
        #expect(throws: ExpiryInput.Problem(message: message)) { try ExpiryInput.moment(of: text, now: Self.now) }
    }

    @Test(arguments: [
        (7_199.9, "2 h"), (7_140.5, "1 h 59 min"), (7_169, "1 h 59 min"), (7_200, "2 h"), (93_600, "1 d 2 h"),
        (90_000.5, "1 d 1 h"), (86_399, "1 d"), (86_400, "1 d"), (270, "4 min 30 s"), (269.2, "4 min 29 s"),
        (60, "1 min"), (59.5, "1 min"), (45, "45 s"), (1, "1 s"), (0.4, "less than 1 s"), (-3, "less than 1 s"),
        (3_599.2, "1 h"), (3_570, "1 h"), (3_569, "59 min 29 s"), (84_600, "1 d"), (84_599, "23 h 30 min"),
    ])
    func remainingTime(seconds: Double, text: String) {
        #expect(ExpiryInput.remainingText(seconds: seconds) == text)
    }
}
