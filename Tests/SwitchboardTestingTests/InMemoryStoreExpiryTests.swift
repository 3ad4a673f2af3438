import Foundation
import Switchboard
import SwitchboardTesting
import Testing

/// `expires_at` in `InMemoryStore` (override, record, delta, export and import), and a board's audit history on a
/// manual clock: the `expired` entry appears at the expiry, and not for an override replaced before it.
struct InMemoryStoreExpiryTests {
    static let yaml = """
        flags:
          banner: { type: bool, default: false }
        """
    static let expiry = "2026-12-01T09:00:00.000Z"

    @Test func theExpiryRoundTrips() throws {
        let store = InMemoryStore()
        let write = try store.apply([OverrideChange(key: "banner", value: true, expiresAt: Self.expiry)],
                                    by: .unverified("t"), condition: nil)
        #expect(write.records.map(\.expiresAt) == [Self.expiry])
        #expect(try store.read().entries["banner"]?.expiresAt == Self.expiry)
        #expect(try store.changes(since: 0)?.changed["banner"]??.expiresAt == Self.expiry)
        let copy = InMemoryStore()
        try copy.importing(try StoreExport(json: try StoreExport(from: store).json, source: "export"))
        #expect(try copy.read().entries["banner"]?.expiresAt == Self.expiry)
        #expect(try copy.auditLog(limit: 10).map(\.expiresAt) == [Self.expiry])
    }

    @Test func theHistoryShowsTheExpiryOnceItsTimeHasCome() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        try board.set("banner", to: true, actor: "alice", expiresAt: store.clock.date.addingTimeInterval(600))
        #expect(try board.auditLog().map(\.event) == [.change])
        store.clock.advance(by: .seconds(600))
        let history = try board.auditLog()
        #expect(history.map(\.event) == [.change, .expired])
        #expect(history.last?.time == history.first?.expiresAt)
        #expect(history.last?.old == true && history.last?.new == nil)
        #expect(try board.auditLog(limit: 1).map(\.event) == [.expired])
        #expect(try store.auditLog(limit: 10).count == 1)
    }

    @Test func anOverrideReplacedBeforeItsExpiryHasNoExpiredEntry() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        try board.set("banner", to: true, actor: "alice", expiresAt: store.clock.date.addingTimeInterval(600))
        store.clock.advance(by: .seconds(60))
        try board.set("banner", to: false, actor: "bob")
        store.clock.advance(by: .seconds(3600))
        #expect(try board.auditLog().map(\.event) == [.change, .change])
        #expect(board.bool("banner", default: true) == false)
    }
}
