import Testing
@testable import Switchboard

/// The audit history's `expired` entries, derived from the records that set expiring overrides: none before the
/// expiry, one from its moment on, placed at that moment, and none for an override replaced or removed before it.
struct AuditExpiryTests {
    static func seconds(_ time: String) -> Double { Timestamp.parse(time)! }

    static func record(
        _ time: String, _ key: String, _ old: Value?, _ new: Value?, version: UInt64, expiresAt: String? = nil
    ) -> AuditRecord {
        AuditRecord(time: time, actor: "alice", key: key, old: old, new: new, version: version, expiresAt: expiresAt)
    }

    static let set = record("2026-12-01T09:00:00.000Z", "app.debug", nil, true, version: 1,
                            expiresAt: "2026-12-01T11:00:00.000Z")
    static let other = record("2026-12-01T10:00:00.000Z", "app.limit", nil, 5, version: 2)
    static let later = record("2026-12-01T12:00:00.000Z", "app.limit", 5, 6, version: 3)

    @Test func beforeItsTimeThereIsNoEntry() {
        let records = [Self.set, Self.other, Self.later]
        #expect(AuditRecord.withExpiries(records, now: Self.seconds("2026-12-01T10:59:59.999Z")) == records)
    }

    @Test func fromItsTimeOnTheEntryStandsAtThatMoment() {
        let records = [Self.set, Self.other, Self.later]
        let expired = AuditRecord(time: "2026-12-01T11:00:00.000Z", actor: "alice", key: "app.debug", old: true,
                                  new: nil, version: 1, expiresAt: "2026-12-01T11:00:00.000Z", event: .expired)
        #expect(AuditRecord.withExpiries([Self.set, Self.other], now: Self.seconds("2026-12-01T11:00:00.000Z"))
                    == [Self.set, Self.other, expired])
        #expect(AuditRecord.withExpiries(records, now: Self.seconds("2026-12-02T00:00:00.000Z"))
                    == [Self.set, Self.other, expired, Self.later])
    }

    @Test func anOverrideReplacedOrRemovedBeforeItsExpiryGivesNoEntry() {
        let now = Self.seconds("2026-12-02T00:00:00.000Z")
        let replaced = Self.record("2026-12-01T10:30:00.000Z", "app.debug", true, false, version: 2)
        #expect(AuditRecord.withExpiries([Self.set, replaced], now: now) == [Self.set, replaced])
        let removed = Self.record("2026-12-01T10:30:00.000Z", "app.debug", true, nil, version: 2)
        #expect(AuditRecord.withExpiries([Self.set, removed], now: now) == [Self.set, removed])
        // Extended before it expired: the later record's own expiry counts instead.
        let extended = Self.record("2026-12-01T10:30:00.000Z", "app.debug", true, true, version: 2,
                                   expiresAt: "2026-12-01T13:00:00.000Z")
        let history = AuditRecord.withExpiries([Self.set, extended], now: now)
        #expect(history.map(\.event) == [.change, .change, .expired])
        #expect(history.last?.time == "2026-12-01T13:00:00.000Z")
    }

    @Test func anOverrideSetAgainAfterItExpiredKeepsItsEntry() {
        let again = Self.record("2026-12-01T11:30:00.000Z", "app.debug", true, true, version: 2)
        let history = AuditRecord.withExpiries([Self.set, again], now: Self.seconds("2026-12-02T00:00:00.000Z"))
        #expect(history.map(\.event) == [.change, .expired, .change])
    }

    @Test func theEntryIsJSONWithEventExpired() {
        let history = AuditRecord.withExpiries([Self.set], now: Self.seconds("2026-12-02T00:00:00.000Z"))
        #expect(history.last?.json == #"{"actor":"alice","event":"expired","expires_at":"2026-12-01T11:00:00.000Z","#
                    + #""key":"app.debug","new":null,"old":true,"time":"2026-12-01T11:00:00.000Z","verified":false,"#
                    + #""version":1}"#)
        #expect(!Self.set.json.contains("event"))
        #expect(AuditRecord(json: try! Value(json: history.last!.json))?.event == .expired)
    }
}
