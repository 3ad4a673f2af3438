import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The store under real concurrent processes: no lost update, no torn file after SIGKILL, changes observed.
@Suite(.serialized)
struct CrossProcessTests {
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
            process.environment = testEnvironment()
            return process
        }
        for writer in writers { try writer.run() }
        for writer in writers {
            try waitForExit(writer, timeout: .seconds(600))
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

    /// Four int preferences the kill test writes.
    static let killKeys = ["k.a", "k.b", "k.c", "k.d"]
    static let killDefinitions = "preferences:\n" + killKeys.map { "  \($0):\n    type: int\n    default: 0\n" }
        .joined()

    /// Starts `switchboard set KEY VALUE` on the project, its output thrown away.
    func startSet(_ flags: String, _ key: String, _ value: Int) throws -> Process {
        try startSwitchboard(["set", "--flags", flags, "--actor", "writer", key, String(value)])
    }

    /// Concurrent `switchboard set` processes over four keys, SIGKILLed at varying moments of their writes.
    /// After every round the store parses and loads; each key holds a value one of the round's writers wrote,
    /// or its value before the round when a writer was killed; a key whose writers all finished holds one of
    /// theirs; and every audit log line parses, but for an unterminated last line.
    @Test func storeStaysWholeWhileWritersAreKilled() throws {
        let (directory, flags) = makeProject(definitions: Self.killDefinitions)
        let store = directory.path + "/.switchboard/overrides.json"
        let audit = directory.path + "/.switchboard/audit.jsonl"
        for key in Self.killKeys {
            let result = try runSwitchboard(["set", "--flags", flags, key, "1"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: store), "the kill test starts with a store that exists")
        var previous = Dictionary(uniqueKeysWithValues: Self.killKeys.map { ($0, 1) })
        var kills = 0
        var finished = 0
        var round = 0
        var generator = SystemRandomNumberGenerator()
        // Rounds until 300 writers are killed, then one in which nobody is: however slow the machine (or a
        // sanitizer) makes the writers, some rounds have keys whose writers all finished.
        var killing = true
        while killing {
            killing = kills < 300
            round += 1
            try #require(round <= 600, "only \(kills) writers killed in 600 rounds")
            // Two writers per key, each with a value that names its round and itself.
            var writers: [(key: String, value: Int, process: Process)] = []
            for key in Self.killKeys {
                for writer in 0..<2 {
                    let value = round * 10 + writer
                    writers.append((key, value, try startSet(flags, key, value)))
                }
            }
            // From before the writers have started to after most have finished, so kills land everywhere in a write.
            usleep(UInt32.random(in: 0..<150_000, using: &generator))
            for (_, _, process) in writers.shuffled(using: &generator) where killing && process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
            var killed: Set<String> = []
            for (key, _, process) in writers {
                try waitForExit(process)
                if process.terminationReason == .uncaughtSignal {
                    kills += 1
                    killed.insert(key)
                } else {
                    finished += 1
                    #expect(process.terminationStatus == 0, "round \(round): a writer of \(key) failed")
                }
            }
            let bytes = try #require(FileManager.default.contents(atPath: store), "round \(round): no store")
            #expect(throws: Never.self, "round \(round)") { try FileStore.decode(Array(bytes), path: store) }
            let board = try openBoard(flags)
            #expect(board.storeProblem == nil, "round \(round)")
            for key in Self.killKeys {
                let value = board.int(key, default: -1)
                var allowed = Set(writers.filter { $0.key == key }.map(\.value))
                if killed.contains(key) { allowed.insert(previous[key]!) }
                #expect(allowed.contains(value), "round \(round): \(key) is \(value), not one of \(allowed.sorted())")
                previous[key] = value
            }
            let log = String(decoding: FileManager.default.contents(atPath: audit) ?? Data(), as: UTF8.self)
            var lines = log.split(separator: "\n", omittingEmptySubsequences: false)
            if !log.hasSuffix("\n") { lines.removeLast() }  // a torn final line is tolerated; nothing else is
            for line in lines where !line.isEmpty {
                #expect(throws: Never.self, "round \(round): audit line \(line)") { try Value(json: String(line)) }
            }
        }
        print("kill test: \(kills) writers killed with SIGKILL and \(finished) finished, in \(round) rounds")
        #expect(finished > 0, "no writer ever finished: the rounds are too short to test a finished write")
    }

    @Test func changesDeliversAChangeMadeByAnotherProcess() async throws {
        let (directory, flags) = makeProject()
        let board = try openBoard(flags, poll: .milliseconds(100))
        let changes = AsyncCollector(board.changes)
        let result = try runSwitchboard(["set", "--flags", flags, "app.new_flow", "true"])
        #expect(result.status == 0)
        let change = try await changes.next("the change `switchboard set` made")
        #expect(change.key == "app.new_flow")
        #expect(change.new == .bool(true))
        #expect(change.layer == .runtime)
        #expect(board.bool("app.new_flow", default: false))
        _ = directory
    }

    @Test func changesDeliversSetResetAndReload() async throws {
        let (directory, flags) = makeProject()
        let board = try openBoard(flags)
        let changes = AsyncCollector(board.changes)
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(try await changes.next().new == .string("dark"))
        try board.reset("app.theme", actor: "t")
        #expect(try await changes.next().new == .string("system"))
        directory.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(of: "default: 25", with: "default: 30"))
        let report = board.reload()
        #expect(!report.hasErrors)
        let change = try await changes.next()
        #expect(change.key == "app.upload.max_mb" && change.new == .int(30))
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
