import Testing
@testable import Switchboard

/// RFC 3339 times as rules, schedules, `--until` and stored overrides read them: every field exactly its digits, and
/// nothing that only looks like a time.
struct TimestampParsingTests {
    /// 2026-12-01T10:00:00Z.
    static let tenOClock = 1_796_119_200.0

    @Test(arguments: [
        ("2026-12-01T10:00:00Z", tenOClock),
        ("2026-12-01t10:00:00z", tenOClock),
        ("2026-12-01 10:00:00Z", tenOClock),
        ("2026-12-01T10:00:00.5Z", tenOClock + 0.5),
        ("2026-12-01T11:30:00+01:30", tenOClock),
        ("2026-12-01T00:00:00-10:00", tenOClock),
        ("2026-12-01T23:59:00+23:59", tenOClock - 36_000),  // midnight, UTC
        ("2026-12-01T10:00:00", tenOClock),
        ("2026-12-01", tenOClock - 36_000),
    ])
    func accepted(text: String, seconds: Double) {
        #expect(Timestamp.parse(text) == seconds)
    }

    @Test(arguments: [
        "2026-12-01T10:00:00.Z",  // a fraction without a digit
        "2026-12-01T10:00:00.",
        "2026-12-01T10:00:00+24:00",  // offsets stop at ±23:59
        "2026-12-01T10:00:00+01:60",
        "2026-12-01T10:00:00+0100",
        "2026-12-01T10:00:00+01-00",
        "2026-12-01T10-00-00Z",  // the time's separators are colons
        "2026-12-01T10:00Z",
        "2026-12-01T+1:00:00Z",  // no sign, no space in a field
        "2026-12-01T 1:00:00Z",
        "2026-12-01T10:00:+1Z",
        "2026-12-01T24:00:00Z",
        "2026-12-01T10:00:00ZZ",
        "2026-12-01T10:00:00 Z",
        "2026-+1-01T10:00:00Z",  // nor in the date's
        "2026-12-+1T10:00:00Z",
        "2026-12-01T10:00:60Z",  // no leap second, as JavaScript's Date (the console) has none
    ])
    func refused(text: String) {
        #expect(Timestamp.parse(text) == nil)
        #expect(Timestamp.parseZoned(text) == nil)
    }
}
