import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// `expires_at` in the PostgreSQL store: on the override, on its audit row, in the deltas replicas catch up with,
/// and through `store export` and `import`.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresExpiryTests {
    static let expiry = "2026-12-01T09:00:00.000Z"

    @Test func theExpiryRoundTrips() throws {
        let store = try TestDatabase.store()
        let write = try store.apply([OverrideChange(key: "limit", value: 7, expiresAt: Self.expiry),
                                     OverrideChange(key: "motto", value: "hi")],
                                     by: .unverified("alice"), condition: nil)
        #expect(write.records.map(\.expiresAt) == [Self.expiry, nil])
        let contents = try store.read()
        #expect(contents.entries["limit"]?.expiresAt == Self.expiry)
        #expect(contents.entries["motto"]?.expiresAt == nil)
        #expect(try store.auditLog(limit: 10).map(\.expiresAt) == [Self.expiry, nil])
        let delta = try #require(try store.changes(since: 0))
        #expect(delta.changed["limit"]??.expiresAt == Self.expiry)
        // The same value without an expiry is a change, and clears it.
        #expect(try store.apply([OverrideChange(key: "limit", value: 7)], by: .unverified("bob"), condition: nil)
            .records.count == 1)
        #expect(try store.read().entries["limit"]?.expiresAt == nil)
    }

    @Test func anExportCarriesTheExpiryToAnotherScope() throws {
        let store = try TestDatabase.store()
        _ = try store.apply([OverrideChange(key: "limit", value: 7, expiresAt: Self.expiry)], by: .unverified("alice"),
                            condition: nil)
        let export = try StoreExport(from: store)
        let target = try TestDatabase.store()
        try target.importing(try StoreExport(json: export.json, source: "export.json"))
        #expect(try target.read().entries["limit"]?.expiresAt == Self.expiry)
        #expect(try target.auditLog(limit: 10).map(\.expiresAt) == [Self.expiry])
    }
}
