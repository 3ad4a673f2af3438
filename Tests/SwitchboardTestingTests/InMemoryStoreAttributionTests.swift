import Switchboard
import SwitchboardTesting
import Testing

/// `InMemoryStore` records who made each write as every store does: the attribution on the audit record, its actor
/// on the override, both through export and import.
struct InMemoryStoreAttributionTests {
    static let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)

    @Test func theAttributionIsRecordedAndExported() throws {
        let store = InMemoryStore()
        let write = try store.apply([OverrideChange(key: "banner", value: true)], by: Self.verified, condition: nil)
        _ = try store.apply([OverrideChange(key: "banner", value: nil)], by: .unverified("t"), condition: nil)
        #expect(write.records.map(\.attribution) == [Self.verified])
        #expect(write.changed["banner"]??.actor == "ana")
        #expect(try store.auditLog(limit: 10).map(\.attribution) == [Self.verified, .unverified("t")])
        let copy = InMemoryStore()
        try copy.importing(try StoreExport(json: try StoreExport(from: store).json, source: "export"))
        #expect(try copy.auditLog(limit: 10).map(\.attribution) == [Self.verified, .unverified("t")])
    }

    @Test func aTestingBoardWritesAsAnAttribution() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: "flags:\n  banner: { type: bool, default: false }\n", store: store)
        try board.set("banner", to: true, as: Self.verified)
        #expect(try board.auditLog().map(\.attribution) == [Self.verified])
        #expect(board.storedOverride("banner")?.actor == "ana")
    }
}
