import Testing
@testable import Switchboard

/// `expires` days: `YYYY-MM-DD`, a day that exists.
struct DayTests {
    @Test(arguments: [
        ("2027-03-01", Day(year: 2027, month: 3, day: 1)), ("2028-02-29", Day(year: 2028, month: 2, day: 29)),
        ("2000-02-29", Day(year: 2000, month: 2, day: 29)), ("0001-12-31", Day(year: 1, month: 12, day: 31)),
    ])
    func aRealDayIsRead(text: String, day: Day) {
        #expect(Day(text) == day)
        #expect(Day(text)?.description == text)
    }

    @Test(arguments: [
        "2027-02-29", "1900-02-29", "2027-04-31", "2027-13-01", "2027-00-10", "2027-01-00", "2027-1-01", "27-01-01",
        "2027-01-1", "2027/01/01", "2027-01-01 ", "2027-0a-01", "２０２７-01-01", "", "2027-01-01-01",
    ])
    func anythingElseIsNot(text: String) {
        #expect(Day(text) == nil)
    }
}
