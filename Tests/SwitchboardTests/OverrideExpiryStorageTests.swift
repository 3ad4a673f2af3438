import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// An override's `expires_at` in the file store (state file, journal, compaction), in `store export` files, and in
/// the write plan every store shares; files written before overrides could expire still load.
struct OverrideExpiryStorageTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file(".switchboard/overrides.json") }
    static let expiry = "2099-12-01T09:00:00.000Z"

    @discardableResult
    func set(_ store: any RuntimeStore, _ key: String, _ value: Value?, expiresAt: String? = nil) throws
        -> StoreWrite
    {
        try store.apply([OverrideChange(key: key, value: value, expiresAt: expiresAt)], by: .unverified("t"),
                        condition: nil)
    }

    @Test func theFileStoreKeepsTheExpiryOfEachOverrideAndRecord() throws {
        let store = FileStore(path: path)
        let write = try set(store, "app.a", 1, expiresAt: Self.expiry)
        try set(store, "app.b", 2)
        #expect(write.records.map(\.expiresAt) == [Self.expiry])
        #expect(write.changed["app.a"]??.expiresAt == Self.expiry)
        // A fresh store replays the journal; the second reads the state file a compaction wrote.
        let reopened = FileStore(path: path)
        #expect(try reopened.read().entries["app.a"]?.expiresAt == Self.expiry)
        #expect(try reopened.read().entries["app.b"]?.expiresAt == nil)
        #expect(try reopened.auditLog().map(\.expiresAt) == [Self.expiry, nil])
        let compacting = FileStore(path: path, compactionBytes: 0)
        try set(compacting, "app.c", 3, expiresAt: Self.expiry)
        let state = try #require(directory.read(".switchboard/overrides.json"))
        #expect(state.contains(#""version": 4"#))
        #expect(state.contains(#""app.a": {"actor":"t","expires_at":"2099-12-01T09:00:00.000Z","time":"#))
        let compacted = try FileStore(path: path).read()
        #expect(compacted.entries.mapValues(\.expiresAt) == ["app.a": Self.expiry, "app.b": String?.none,
                                                             "app.c": Self.expiry])
    }

    @Test func theAuditLineCarriesExpiresAtOnlyWhenThereIsOne() throws {
        let store = FileStore(path: path)
        try set(store, "app.a", 1, expiresAt: Self.expiry)
        try set(store, "app.a", nil)
        let lines = try #require(directory.read(".switchboard/audit.jsonl")).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""expires_at":"2099-12-01T09:00:00.000Z""#))
        #expect(!lines[1].contains("expires_at"))
        #expect(!lines[0].contains("event"))
    }

    @Test func anotherExpiryOfTheSameValueIsAChangeTheSameOneIsNot() throws {
        let store = FileStore(path: path)
        try set(store, "app.a", 1)
        #expect(try set(store, "app.a", 1, expiresAt: Self.expiry).records.count == 1)
        #expect(try set(store, "app.a", 1, expiresAt: Self.expiry).records.isEmpty)
        #expect(try set(store, "app.a", 1).records.map(\.expiresAt) == [nil])
        #expect(try store.read().entries["app.a"]?.expiresAt == nil)
        #expect(try store.read().version == 3)
    }

    @Test func aRemovalCarriesNoExpiry() {
        #expect(OverrideChange(key: "app.a", value: nil, expiresAt: Self.expiry).expiresAt == nil)
    }

    @Test func aStateFileAndLogOfFormatTwoLoad() throws {
        directory.write(".switchboard/overrides.json", """
            {
              "version": 2,
              "revision": 1,
              "audit_offset": 0,
              "overrides": {
                "app.a": {"actor":"alice","time":"2026-11-20T10:00:00.000Z","value":1,"version":1}
              }
            }

            """)
        directory.write(".switchboard/audit.jsonl", """
            {"actor":"bob","key":"app.b","new":2,"old":null,"time":"2026-11-20T10:00:01.000Z","version":2}

            """)
        let store = FileStore(path: path)
        let contents = try store.read()
        #expect(contents.version == 2)
        #expect(contents.entries.mapValues(\.value) == ["app.a": 1, "app.b": 2])
        #expect(contents.entries.values.allSatisfy { $0.expiresAt == nil })
        try set(store, "app.c", 3, expiresAt: Self.expiry)
        #expect(try FileStore(path: path).read().entries["app.c"]?.expiresAt == Self.expiry)
    }

    @Test func anExportCarriesExpiresAtAndReadsBack() throws {
        let store = FileStore(path: path)
        try set(store, "app.a", 1, expiresAt: Self.expiry)
        try set(store, "app.b", 2)
        let export = try StoreExport(from: store)
        #expect(export.json.contains(#""expires_at":"2099-12-01T09:00:00.000Z""#))
        let read = try StoreExport(json: export.json, source: "export.json")
        #expect(read == export)
        let target = FileStore(path: directory.file("moved/overrides.json"))
        try target.importing(read)
        #expect(try target.read().entries["app.a"]?.expiresAt == Self.expiry)
        #expect(try target.auditLog().map(\.expiresAt) == [Self.expiry, nil])
    }

    @Test func anExportWrittenBeforeExpiriesLoads() throws {
        let text = """
            {"format":"switchboard-store","version":1,"overrides":{
            "app.a":{"actor":"alice","time":"2026-11-20T10:00:00.000Z","value":1,"version":1}},"audit":[
            {"actor":"alice","key":"app.a","new":1,"old":null,"time":"2026-11-20T10:00:00.000Z","version":1}]}

            """
        let export = try StoreExport(json: text, source: "old.json")
        #expect(export.contents.entries["app.a"]?.value == 1)
        #expect(export.contents.entries["app.a"]?.expiresAt == nil)
        #expect(export.audit.map(\.expiresAt) == [nil])
        #expect(export.audit.map(\.event) == [.change])
    }
}
