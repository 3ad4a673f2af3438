import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// The last N entries of the history hold every expiry among them, also of an override set before the last N
/// records: `switchboard log --limit N`, `GET /v1/audit` and the console lost it while later writes pushed the
/// record that set it out of the window.
struct AuditHistoryWindowTests {
    let directory = TemporaryDirectory()

    /// Writes an override of `app.debug` that expires in an hour, then three writes of `app.limit`, and returns a
    /// moment two hours on: read then, the history's last entries end with the expiry, although the record that set
    /// the override is not among the last three.
    static func writeAnExpiryBehindLaterWrites(to store: any RuntimeStore) throws -> Double {
        let now = Date().timeIntervalSince1970
        let expiry = StoredOverride.time(secondsSinceEpoch: now + 3_600)
        _ = try store.apply([OverrideChange(key: "app.debug", value: true, expiresAt: expiry)],
                            by: .unverified("ana"), condition: nil)
        for value in 1...3 {
            _ = try store.apply([OverrideChange(key: "app.limit", value: .int(value))], by: .unverified("bob"),
                                condition: nil)
        }
        return now + 7_200
    }

    @Test func anExpiryStaysInTheLastEntriesAfterLaterWrites() throws {
        let store = FileStore(path: directory.file(".switchboard/overrides.json"))
        let now = try Self.writeAnExpiryBehindLaterWrites(to: store)
        let last = try AuditRecord.history(of: store, limit: 1, now: now)
        #expect(last.map(\.event) == [.expired])
        #expect(last.map(\.key) == ["app.debug"])
        let three = try AuditRecord.history(of: store, limit: 3, now: now)
        #expect(three.map(\.key) == ["app.limit", "app.limit", "app.debug"])
        #expect(try AuditRecord.history(of: store, limit: 10, now: now).count == 5)
    }
}
