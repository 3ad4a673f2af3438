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
        try store.apply([OverrideChange(key: key, value: value)], actor: "t", condition: nil)
    }

    func state(_ path: String) throws -> FileStore.StateFile {
        try FileStore.decodeState([UInt8](try #require(FileManager.default.contents(atPath: path))), path: path)
    }

    func size(_ path: String) -> Int {
        FileManager.default.contents(atPath: path)?.count ?? 0
    }

    @Test func theStateFileCatchesUpWithTheLogOnceTheLogHasGrownEnough() throws {
        let directory = TemporaryDirectory()
        let path = directory.file(".switchboard/overrides.json")
        let log = directory.file(".switchboard/audit.jsonl")
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
        #expect(FileStore(path: path).auditLog().count == 20)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aCompactionCutShortBeforeItsRenameLeavesTheStoreWhole() throws {
        let directory = TemporaryDirectory()
        let path = directory.file(".switchboard/overrides.json")
        let store = FileStore(path: path)
        try set(store, "app.a", .int(1))
        try set(store, "app.b", .int(2))
        let before = try #require(FileManager.default.contents(atPath: path))
        // What a compaction killed while writing its temporary file leaves.
        directory.write(".switchboard/overrides.json.tmp", "{\n  \"version\": 2,\n  \"revision\": 3,\n  \"audi")
        let reader = FileStore(path: path)
        #expect(try reader.read().entries.mapValues(\.value) == ["app.a": .int(1), "app.b": .int(2)])
        #expect(FileManager.default.contents(atPath: path) == before)
        // The next compaction writes the temporary file anew.
        try set(FileStore(path: path, compactionBytes: 1), "app.c", .int(3))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        let file = try state(path)
        #expect(file.contents.entries.count == 3)
        #expect(file.auditOffset == size(directory.file(".switchboard/audit.jsonl")))
    }

    /// `switchboard set` writers SIGKILLed at random moments while every write compacts: whatever moment of the
    /// append or the compaction a kill lands in, the store stays whole and agrees with its log.
    @Test func writersKilledWhileCompactingLoseNothing() async throws {
        try await offThePool {
            let (directory, flags) = makeProject(definitions: WriterKills.definitions)
            let path = directory.file(".switchboard/overrides.json")
            let log = directory.file(".switchboard/audit.jsonl")
            var behind = 0
            var midway = 0
            let result = try WriterKills.run(
                directory: directory, flags: flags, keys: Array(WriterKills.keys.prefix(2)), kills: 100,
                environment: ["SWITCHBOARD_STATE_COMPACTION_BYTES": "1"]
            ) {
                // Every write compacts, so a state file behind the log's last complete line is a compaction that a
                // kill stopped, and a temporary file left over is one stopped between its start and its rename.
                let text = FileManager.default.contents(atPath: log) ?? Data()
                let end = (text.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
                if let offset = try? state(path).auditOffset, offset < end { behind += 1 }
                if FileManager.default.fileExists(atPath: path + ".tmp") { midway += 1 }
            }
            print("compaction kill test: \(result.kills) writers killed, \(result.finished) finished; of \(result.rounds) "
                + "rounds, \(behind) ended with the state file behind the log, \(midway) with a temporary file left over")
            #expect(result.finished > 0)
        }
    }

    /// Two processes setting different keys, compacting every few writes: each write saw the one before it,
    /// whichever process compacted in between.
    @Test func twoProcessesWritingAcrossCompactionsLoseNothing() async throws {
        try await offThePool {
            let (directory, flags) = makeProject()
            let bin = switchboardExecutable.path
            let count = 150
            let writers = try ["a", "b"].map { key in
                try startProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", """
                    i=1; while [ $i -le \(count) ]; do \(bin) set --flags \(flags) --actor \(key) app.stress.\(key) $i \
                    >/dev/null || exit 1; i=$((i+1)); done
                    """], environment: ["SWITCHBOARD_STATE_COMPACTION_BYTES": "1000"])
            }
            for writer in writers {
                try waitForExit(writer, timeout: .seconds(600))
                #expect(writer.terminationStatus == 0)
            }
            let path = directory.file(".switchboard/overrides.json")
            let file = try state(path)
            #expect(try #require(file.auditOffset) > 0, "the writers compacted")
            let board = try openBoard(flags)
            #expect(board.int("app.stress.a", default: 0) == count)
            #expect(board.int("app.stress.b", default: 0) == count)
            let log = board.auditLog()
            #expect(log.count == 2 * count)
            #expect(log.map(\.version) == Array(1...UInt64(2 * count)))
            for key in ["app.stress.a", "app.stress.b"] {
                let records = log.filter { $0.key == key }
                #expect(records.count == count)
                #expect(records.enumerated().allSatisfy { index, record in
                    record.new == .int(index + 1) && record.old == (index == 0 ? nil : .int(index))
                })
            }
        }
    }
}
