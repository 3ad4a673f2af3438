import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// Who made each write, in the PostgreSQL store: the attribution on the audit row, its actor on the override, and
/// both through `store export` and `import`.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresAttributionTests {
    static let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)

    @Test func theAttributionIsRecorded() throws {
        let store = try TestDatabase.store()
        let write = try store.apply([OverrideChange(key: "limit", value: 7)], by: Self.verified, condition: nil)
        _ = try store.apply([OverrideChange(key: "limit", value: 8)], by: .unverified("cli:bob"), condition: nil)
        #expect(write.records.map(\.attribution) == [Self.verified])
        #expect(try store.read().entries["limit"]?.actor == "cli:bob")
        #expect(try store.auditLog(limit: 10).map(\.attribution) == [Self.verified, .unverified("cli:bob")])
    }

    @Test func anExportCarriesTheAttributionToAnotherScope() throws {
        let store = try TestDatabase.store()
        _ = try store.apply([OverrideChange(key: "limit", value: 7)], by: Self.verified, condition: nil)
        let export = try StoreExport(from: store)
        let target = try TestDatabase.store()
        try target.importing(try StoreExport(json: export.json, source: "export.json"))
        #expect(try target.auditLog(limit: 10).map(\.attribution) == [Self.verified])
    }
}
