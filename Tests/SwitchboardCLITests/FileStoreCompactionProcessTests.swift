import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Compaction with `switchboard set` writers in other processes, killed or not: nothing is lost.
@Suite(.serialized)
struct FileStoreCompactionProcessTests {
    func state(_ path: String) throws -> FileStore.StateFile {
        try FileStore.decodeState([UInt8](try #require(FileManager.default.contents(atPath: path))), path: path)
    }

    /// `switchboard set` writers SIGKILLed at random moments while every write compacts: whatever moment of the
    /// append or the compaction a kill lands in, the store stays whole and agrees with its log.
    @Test func writersKilledWhileCompactingLoseNothing() async throws {
        try await offThePool {
            let project = makeProject(definitions: WriterKills.definitions)
            let path = project.file(".switchboard/overrides.json")
            let log = project.file(".switchboard/audit.jsonl")
            var behind = 0
            var midway = 0
            let result = try WriterKills.run(
                project: project, flags: project.flags, keys: Array(WriterKills.keys.prefix(2)), kills: 100,
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
            let project = makeProject()
            let bin = switchboardExecutable.path
            let count = 150
            let writers = try ["a", "b"].map { key in
                try startProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", """
                    i=1; while [ $i -le \(count) ]; do \(bin) set --flags \(project.flags) --actor \(key) app.stress.\(key) $i \
                    >/dev/null || exit 1; i=$((i+1)); done
                    """], environment: ["SWITCHBOARD_STATE_COMPACTION_BYTES": "1000"])
            }
            for writer in writers {
                try waitForExit(writer, timeout: .seconds(600))
                #expect(writer.terminationStatus == 0)
            }
            let path = project.file(".switchboard/overrides.json")
            let file = try state(path)
            #expect(try #require(file.auditOffset) > 0, "the writers compacted")
            let board = try openBoard(project.flags)
            #expect(board.int("app.stress.a", default: 0) == count)
            #expect(board.int("app.stress.b", default: 0) == count)
            let log = try board.auditLog()
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
