import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Compaction: now and then a writer rewrites the state file as of the log's end, and a crash at any moment of
/// that, or writers in other processes, lose nothing.
@Suite(.serialized)
struct FileStoreCompactionTests {
    @discardableResult
    func set(_ store: FileStore, _ key: String, _ value: Value?) throws -> StoreWrite {
        try store.apply([OverrideChange(key: key, value: value)], by: .unverified("t"), condition: nil)
    }

    func state(_ path: String) throws -> FileStore.StateFile {
        try FileStore.decodeState([UInt8](try #require(FileManager.default.contents(atPath: path))), path: path)
    }

    func size(_ path: String) -> Int {
        FileManager.default.contents(atPath: path)?.count ?? 0
    }

    @Test func theStateFileCatchesUpWithTheLogOnceTheLogHasGrownEnough() throws {
        let project = TestProject()
        let path = project.file(".switchboard/overrides.json")
        let log = project.file(".switchboard/audit.jsonl")
        let store = FileStore(path: path, compactionBytes: 500)
        var compactions = 0
        var offset = 0
        for i in 1...20 {
            try set(store, "app.k\(i % 3)", .int(i))
            let file = try state(path)
            let now = try #require(file.auditOffset)
            if now != offset {
                // Rewritten as of the log's end, holding everything written so far.
                compactions += 1
                #expect(now == size(log))
                #expect(file.contents == (try FileStore(path: path).read()))
                offset = now
            }
            #expect(size(log) - offset < 500)
        }
        #expect(compactions >= 3)
        #expect(try FileStore(path: path).auditLog().count == 20)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aCompactionCutShortBeforeItsRenameLeavesTheStoreWhole() throws {
        let project = TestProject()
        let path = project.file(".switchboard/overrides.json")
        let store = FileStore(path: path)
        try set(store, "app.a", .int(1))
        try set(store, "app.b", .int(2))
        let before = try #require(FileManager.default.contents(atPath: path))
        // What a compaction killed while writing its temporary file leaves.
        project.write(".switchboard/overrides.json.tmp", "{\n  \"version\": 2,\n  \"revision\": 3,\n  \"audi")
        let reader = FileStore(path: path)
        #expect(try reader.read().entries.mapValues(\.value) == ["app.a": .int(1), "app.b": .int(2)])
        #expect(FileManager.default.contents(atPath: path) == before)
        // The next compaction writes the temporary file anew.
        try set(FileStore(path: path, compactionBytes: 1), "app.c", .int(3))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        let file = try state(path)
        #expect(file.contents.entries.count == 3)
        #expect(file.auditOffset == size(project.file(".switchboard/audit.jsonl")))
    }
}
