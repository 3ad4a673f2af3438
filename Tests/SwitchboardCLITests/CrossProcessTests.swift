import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The store under real concurrent processes: no lost update, no torn file after SIGKILL, changes observed.
@Suite(.serialized)
struct CrossProcessTests {
    @Test func twoProcessesSettingDifferentKeys500TimesLoseNothing() async throws {
        try await offThePool {
            let project = makeProject()
            let bin = switchboardExecutable.path
            let loop = { (key: String) in
                "i=1; while [ $i -le 500 ]; do \(bin) set --flags \(project.flags) --actor \(key) app.stress.\(key) $i >/dev/null || exit 1; i=$((i+1)); done"
            }
            // Two writer processes at once (not shell `wait`: it hangs when SIGCHLD handling is inherited oddly).
            let shell = URL(fileURLWithPath: "/bin/sh")
            let writers = try ["a", "b"].map { key in try startProcess(shell, ["-c", loop(key)]) }
            for writer in writers {
                try waitForExit(writer, timeout: .seconds(600))
                #expect(writer.terminationStatus == 0)
            }
            let board = try openBoard(project.flags)
            #expect(board.int("app.stress.a", default: 0) == 500)
            #expect(board.int("app.stress.b", default: 0) == 500)
            let log = try board.auditLog()
            #expect(log.count == 1000)
            for key in ["app.stress.a", "app.stress.b"] {
                let records = log.filter { $0.key == key }
                #expect(records.count == 500)
                // Each write saw the previous one: the store was re-read under the lock.
                #expect(records.enumerated().allSatisfy { index, record in
                    record.new == .int(index + 1) && record.old == (index == 0 ? nil : .int(index))
                })
            }
        }
    }

    /// Concurrent `switchboard set` processes SIGKILLed at varying moments of their writes, until 300 were
    /// killed: the store stays whole and agrees with its audit log (see ``WriterKills``).
    @Test func storeStaysWholeWhileWritersAreKilled() async throws {
        try await offThePool {
            let project = makeProject(definitions: WriterKills.definitions)
            let result = try WriterKills.run(project: project, flags: project.flags, keys: WriterKills.keys, kills: 300)
            print("kill test: \(result.kills) writers killed with SIGKILL and \(result.finished) finished, "
                + "in \(result.rounds) rounds")
            #expect(result.finished > 0, "no writer ever finished: the rounds are too short to test a finished write")
        }
    }

    @Test func changesDeliversAChangeMadeByAnotherProcess() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags, poll: .milliseconds(100))
        let changes = AsyncCollector(board.changes)
        let result = try runSwitchboard(["set", "--flags", project.flags, "app.new_flow", "true"])
        #expect(result.status == 0)
        let change = try await changes.next("the change `switchboard set` made")
        #expect(change.key == "app.new_flow")
        #expect(change.new == .bool(true))
        #expect(change.layer == .runtime)
        #expect(board.bool("app.new_flow", default: false))
    }
}
