import Foundation
import Testing
@testable import Switchboard

/// The store under real concurrent processes: no lost update, no torn file after SIGKILL, changes observed.
@Suite(.serialized)
struct CrossProcessTests {
    /// Runs a shell script; returns its exit status.
    @discardableResult
    func shell(_ script: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func twoProcessesSettingDifferentKeys500TimesLoseNothing() throws {
        let (directory, flags) = makeProject()
        let bin = switchboardExecutable.path
        let loop = { (key: String) in
            "i=1; while [ $i -le 500 ]; do \(bin) set --flags \(flags) --actor \(key) app.stress.\(key) $i >/dev/null || exit 1; i=$((i+1)); done"
        }
        // Two writer processes at once (not shell `wait`: it hangs when SIGCHLD handling is inherited oddly).
        let writers = ["a", "b"].map { key in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", loop(key)]
            return process
        }
        for writer in writers { try writer.run() }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let board = try openBoard(flags)
        #expect(board.int("app.stress.a", default: 0) == 500)
        #expect(board.int("app.stress.b", default: 0) == 500)
        let log = board.auditLog()
        #expect(log.count == 1000)
        for key in ["app.stress.a", "app.stress.b"] {
            let records = log.filter { $0.key == key }
            #expect(records.count == 500)
            // Each write saw the previous one: the store was re-read under the lock.
            #expect(records.enumerated().allSatisfy { index, record in
                record.new == .int(index + 1) && record.old == (index == 0 ? nil : .int(index))
            })
        }
        _ = directory
    }

    @Test func storeAlwaysParsesAfterAWriterIsKilled() throws {
        let (directory, flags) = makeProject()
        let bin = switchboardExecutable.path
        let store = directory.path + "/.switchboard/overrides.json"
        for round in 0..<25 {
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", "i=0; while true; do i=$((i+1)); exec_out=$(\(bin) set --flags \(flags) app.stress.a $i); done"]
            try writer.run()
            usleep(useconds_t(40_000 + (round * 13_000) % 200_000))
            // Kill the shell's whole family with SIGKILL, wherever the writer is in its write.
            _ = try? shell("pkill -KILL -P \(writer.processIdentifier); kill -KILL \(writer.processIdentifier)")
            writer.waitUntilExit()
            if FileManager.default.fileExists(atPath: store) {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store)))
                #expect(throws: Never.self) { try FileStore.decode(bytes, path: store) }
            }
        }
        #expect(try openBoard(flags).storeProblem == nil)
    }

    @Test func changesDeliversAChangeMadeByAnotherProcess() async throws {
        let (directory, flags) = makeProject()
        let board = try openBoard(flags, poll: .milliseconds(100))
        let changes = board.changes
        let started = ContinuousClock.now
        let result = try runSwitchboard(["set", "--flags", flags, "app.new_flow", "true"])
        #expect(result.status == 0)
        var iterator = changes.makeAsyncIterator()
        let change = await iterator.next()
        #expect(change?.key == "app.new_flow")
        #expect(change?.new == .bool(true))
        #expect(change?.layer == .runtime)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(board.bool("app.new_flow", default: false))
        _ = directory
    }

    @Test func changesDeliversSetResetAndReload() async throws {
        let (directory, flags) = makeProject()
        let board = try openBoard(flags)
        var iterator = board.changes.makeAsyncIterator()
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(await iterator.next()?.new == .string("dark"))
        try board.reset("app.theme", actor: "t")
        #expect(await iterator.next()?.new == .string("system"))
        directory.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(of: "default: 25", with: "default: 30"))
        let report = board.reload()
        #expect(!report.hasErrors)
        let change = await iterator.next()
        #expect(change?.key == "app.upload.max_mb" && change?.new == .int(30))
    }

    @Test func badReloadKeepsTheLastGoodDefinitions() throws {
        let (directory, flags) = makeProject()
        let board = try openBoard(flags)
        directory.write("flags/app.yaml", "flags:\n  broken: [\n")
        let report = board.reload()
        #expect(report.hasErrors)
        #expect(board.int("app.upload.max_mb", default: 0) == 25)
        #expect(!board.lastReloadErrors.isEmpty)
    }
}
