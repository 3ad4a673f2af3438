import Testing
import Switchboard
import SwitchboardTestSupport

/// `store export` and `store import` keep who made each write; an export written before writes were attributed
/// loads, its records unverified.
struct StoreExportAttributionTests {
    let directory = TemporaryDirectory()
    static let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)

    @Test func anExportKeepsEachRecordsAttributionThroughImport() throws {
        let store = FileStore(path: directory.file("a/overrides.json"))
        _ = try store.apply([OverrideChange(key: "app.a", value: 1)], by: Self.verified, condition: nil)
        _ = try store.apply([OverrideChange(key: "app.a", value: nil)], by: .unverified("cli:bob"), condition: nil)
        let export = try StoreExport(from: store)
        #expect(export.json.contains(#""claimed_actor":"mallory""#))
        #expect(export.json.contains(#""verified":true"#) && export.json.contains(#""verified":false"#))
        let read = try StoreExport(json: export.json, source: "export.json")
        #expect(read == export)
        let target = FileStore(path: directory.file("b/overrides.json"))
        try target.importing(read)
        #expect(try target.auditLog().map(\.attribution) == [Self.verified, .unverified("cli:bob")])
    }

    @Test func anExportWrittenBeforeAttributionLoadsUnverified() throws {
        let text = """
            {"format":"switchboard-store","version":1,"overrides":{
            "app.a":{"actor":"alice","time":"2026-11-20T10:00:00.000Z","value":1,"version":1}},"audit":[
            {"actor":"alice","key":"app.a","new":1,"old":null,"time":"2026-11-20T10:00:00.000Z","version":1}]}

            """
        let export = try StoreExport(json: text, source: "old.json")
        #expect(export.contents.entries["app.a"]?.actor == "alice")
        #expect(export.audit.map(\.attribution) == [.unverified("alice")])
    }
}
