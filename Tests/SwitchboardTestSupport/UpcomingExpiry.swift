import Foundation

/// A time `days` from now, on the hour, as a user types an expiry with an offset (`2027-01-01T10:00:00+02:00`) and
/// as the stores write the same instant (UTC to the millisecond, `2027-01-01T08:00:00.000Z`): for tests of
/// `--until` and `expires_at`, which take a time at most 365 days away.
public func upcomingExpiry(days: Int = 30) -> (withOffset: String, utc: String) {
    let hours = ((Date().timeIntervalSince1970 + Double(days) * 86_400) / 3_600).rounded(.down)
    let moment = Date(timeIntervalSince1970: hours * 3_600)
    let offset = ISO8601DateFormatter()
    offset.timeZone = TimeZone(secondsFromGMT: 7_200)
    let utc = ISO8601DateFormatter()
    utc.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return (offset.string(from: moment), utc.string(from: moment))
}
