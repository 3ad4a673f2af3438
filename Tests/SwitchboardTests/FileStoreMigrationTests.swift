import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Stores the journal did not write: a state file from before it, a state file moved aside, an audit log moved
/// aside. Each reads as it did before, and the first write records where the log stands before appending to it.
struct FileStoreMigrationTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file(".switchboard/overrides.json") }

    @discardableResult
    func set(_ store: FileStore, _ key: String, _ value: Value?) throws -> StoreWrite {
        try store.apply([OverrideChange(key: key, value: value)], by: .unverified("t"), condition: nil)
    }

    /// A state file and an audit log as the store wrote them before the journal, the log ending in a record a
    /// `kill -9` cut short.
    func writeEarlierStore() {
        directory.write(".switchboard/overrides.json", """
            {
              "version": 1,
              "revision": 2,
              "overrides": {
                "app.a": {"actor":"alice","time":"2026-11-20T10:00:00.000Z","value":1,"version":1},
                "app.b": {"actor":"bob","time":"2026-11-20T10:00:01.000Z","value":2,"version":2}
              }
            }

            """)
        directory.write(".switchboard/audit.jsonl", """
            {"actor":"alice","key":"app.a","new":1,"old":null,"time":"2026-11-20T10:00:00.000Z","version":1}
            {"actor":"bob","key":"app.b","new":2,"old":null,"time":"2026-11-20T10:00:01.000Z","version":2}
            {"actor":"carol","key":"app.b","new":3,"o
            """)
    }

    @Test func aStateFileFromBeforeTheJournalIsReadAsItIs() throws {
        writeEarlierStore()
        let store = FileStore(path: path)
        let contents = try store.read()
        #expect(contents.version == 2)
        #expect(contents.entries.mapValues(\.value) == ["app.a": .int(1), "app.b": .int(2)])
        #expect(try store.auditLog().map(\.actor) == ["alice", "bob"])
    }

    @Test func theFirstWriteRecordsWhereTheLogStandsThenAppends() throws {
        writeEarlierStore()
        let history = try #require(directory.read(".switchboard/audit.jsonl"))
        let complete = String(history[...history.lastIndex(of: "\n")!])
        try set(FileStore(path: path), "app.c", .int(4))
        let state = try FileStore.decodeState(
            [UInt8](try #require(FileManager.default.contents(atPath: path))), path: path)
        #expect(state.auditOffset == complete.utf8.count)
        #expect(state.contents.entries.count == 2)
        let log = try #require(directory.read(".switchboard/audit.jsonl"))
        #expect(log.hasPrefix(complete))
        #expect(log.split(separator: "\n").count == 3)
        let store = FileStore(path: path)
        #expect(try store.read().version == 3)
        #expect(try store.read().entries.mapValues(\.value) == ["app.a": .int(1), "app.b": .int(2), "app.c": .int(4)])
        #expect(try store.auditLog().map(\.actor) == ["alice", "bob", "t"])
    }

    @Test func aStateFileMovedAsideStartsAnEmptyStoreThoughTheLogRemains() throws {
        let store = FileStore(path: path)
        try set(store, "app.a", .int(1))
        try set(store, "app.b", .int(2))
        try FileManager.default.moveItem(atPath: path, toPath: path + ".bad")
        let fresh = FileStore(path: path)
        #expect(try fresh.read() == StoreContents(entries: [:], version: 0))
        try set(fresh, "app.c", .int(3))
        let contents = try FileStore(path: path).read()
        #expect(contents.version == 1)
        #expect(contents.entries.keys.sorted() == ["app.c"])
        #expect(try fresh.auditLog().map(\.key) == ["app.a", "app.b", "app.c"])
    }

    @Test func anAuditLogMovedAsideLeavesTheStateFileInEffect() throws {
        let compacting = FileStore(path: path, compactionBytes: 1)
        try set(compacting, "app.a", .int(1))
        let store = FileStore(path: path)
        try set(store, "app.b", .int(2))
        let log = directory.file(".switchboard/audit.jsonl")
        try FileManager.default.moveItem(atPath: log, toPath: log + ".old")
        // The write of app.b was in the log only: it went with it.
        let fresh = FileStore(path: path)
        #expect(try fresh.read().entries.keys.sorted() == ["app.a"])
        try set(fresh, "app.c", .int(3))
        let contents = try FileStore(path: path).read()
        #expect(contents.entries.keys.sorted() == ["app.a", "app.c"])
        #expect(contents.version == 2)
        #expect(try fresh.auditLog().map(\.key) == ["app.c"])
    }
}
