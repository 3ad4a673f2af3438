import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Rounds of `switchboard set` writers SIGKILLed at random moments of their writes, with the store checked
/// after every round: the kill tests of the file store share them.
enum WriterKills {
    /// Four int preferences the writers set.
    static let keys = ["k.a", "k.b", "k.c", "k.d"]
    /// The definitions of ``keys``.
    static let definitions = "preferences:\n" + keys.map { "  \($0):\n    type: int\n    default: 0\n" }.joined()

    /// How the rounds went.
    struct Result {
        var kills = 0
        var finished = 0
        var rounds = 0
    }

    /// Two concurrent `switchboard set` writers per key, SIGKILLed at varying moments, in rounds until `target`
    /// writers were killed, then one round in which nobody is: however slow the machine (or a sanitizer) makes
    /// the writers, some rounds have keys whose writers all finished.
    ///
    /// After every round the state file parses and a board loads the store; each key holds a value one of the
    /// round's writers wrote, or its value before the round when one of them was killed; the audit log's last
    /// record of each key has that value; and every line of the log parses, but for an unterminated last line.
    /// `afterRound` runs after each round's checks.
    static func run(
        project: TestProject, flags: String, keys: [String], kills target: Int,
        environment: [String: String] = [:], afterRound: () -> Void = {}
    ) throws -> Result {
        let store = project.path + "/.switchboard/overrides.json"
        let audit = project.path + "/.switchboard/audit.jsonl"
        for key in keys {
            let result = try runSwitchboard(["set", "--flags", flags, key, "1"], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: store), "the kill test starts with a store that exists")
        var previous = Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })
        var result = Result()
        var generator = SystemRandomNumberGenerator()
        var killing = true
        while killing {
            killing = result.kills < target
            result.rounds += 1
            let round = result.rounds
            try #require(round <= 2 * target, "only \(result.kills) writers killed in \(2 * target) rounds")
            // Two writers per key, each with a value that names its round and itself.
            var writers: [(key: String, value: Int, process: Process)] = []
            for key in keys {
                for writer in 0..<2 {
                    let value = round * 10 + writer
                    let arguments = ["set", "--flags", flags, "--actor", "writer", key, String(value)]
                    writers.append((key, value, try startProcess(switchboardExecutable, arguments,
                                                                 environment: environment)))
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
                    result.kills += 1
                    killed.insert(key)
                } else {
                    result.finished += 1
                    #expect(process.terminationStatus == 0, "round \(round): a writer of \(key) failed")
                }
            }
            let bytes = try #require(FileManager.default.contents(atPath: store), "round \(round): no store")
            #expect(throws: Never.self, "round \(round)") { try FileStore.decode(Array(bytes), path: store) }
            let board = try openBoard(flags)
            let problem = board.status.storeProblem
            #expect(problem == nil, "round \(round): \(String(describing: problem))")
            let log = try board.auditLog()
            for key in keys {
                let value = board.int(key, default: -1)
                var allowed = Set(writers.filter { $0.key == key }.map(\.value))
                if killed.contains(key) { allowed.insert(previous[key]!) }
                #expect(allowed.contains(value), "round \(round): \(key) is \(value), not one of \(allowed.sorted())")
                let last = log.last { $0.key == key }
                #expect(last?.new == .int(value), "round \(round): the log's last record of \(key) is not \(value)")
                previous[key] = value
            }
            let text = String(decoding: FileManager.default.contents(atPath: audit) ?? Data(), as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if !text.hasSuffix("\n") { lines.removeLast() }  // a torn final line is tolerated; nothing else is
            for line in lines where !line.isEmpty {
                #expect(throws: Never.self, "round \(round): audit line \(line)") { try Value(json: String(line)) }
            }
            afterRound()
        }
        return result
    }
}
