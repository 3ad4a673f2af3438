import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `switchboard set --store URL` processes SIGKILLed at varying moments of their writes: a write is one
/// transaction, so the database holds every write whole or not at all, and the overrides, the audit log and the
/// versions always agree.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresKilledWriterTests {
    /// Four int preferences the writers set.
    static let keys = ["k.a", "k.b", "k.c", "k.d"]
    static let definitions = "preferences:\n" + keys.map { "  \($0):\n    type: int\n    default: 0\n" }.joined()

    /// After every round, once the killed writers' transactions have ended, each key holds a value one of the
    /// round's writers wrote, or its value before the round when one of its writers was killed; a key whose
    /// writers all finished holds one of theirs. At the end every
    /// stored override is the last audit record of its key, versions count the writes one by one, the audit rows
    /// of each key chain (`old` is the previous `new`), and no killed writer left a lock behind.
    @Test func storeStaysWholeWhileWritersAreKilled() async throws {
        let url = try #require(TestDatabase.url)
        let directory = TemporaryDirectory()
        let flags = (directory.write("flags/k.yaml", Self.definitions) as NSString).deletingLastPathComponent
        let scope = "killed-\(UUID().uuidString)"
        let store = try PostgresStore(url: url, scope: scope)
        let setCommand = { (key: String, value: Int) in
            ["set", "--flags", flags, "--store", url, "--scope", scope, "--actor", "writer", key, String(value)]
        }
        // Blocking work runs on threads of its own, so the tests running beside this one keep theirs.
        let run = { (arguments: [String]) in try await onOwnThread { try runSwitchboard(arguments) } }
        for key in Self.keys {
            let result = try await run(setCommand(key, 1))
            #expect(result.status == 0, "\(result.stderr)")
        }
        var previous = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, 1) })
        var kills = 0
        var finished = 0
        var round = 0
        var generator = SystemRandomNumberGenerator()
        // Rounds until 200 writers are killed, then one in which nobody is.
        var killing = true
        while killing {
            killing = kills < 200
            round += 1
            try #require(round <= 600, "only \(kills) writers killed in 600 rounds")
            // Two writers per key, each with a value that names its round and itself.
            var writers: [(key: String, value: Int, process: Process)] = []
            for key in Self.keys {
                for writer in 0..<2 {
                    let value = round * 10 + writer
                    writers.append((key, value, try startSwitchboard(setCommand(key, value))))
                }
            }
            // From before the writers connect to after most have committed, so kills land everywhere in a write.
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<400_000, using: &generator)))
            for (_, _, process) in writers.shuffled(using: &generator) where killing && process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
            var killed: Set<String> = []
            for (key, _, process) in writers {
                try await waitUntil("a writer of \(key) exits") { !process.isRunning }
                process.waitUntilExit()
                if process.terminationReason == .uncaughtSignal {
                    kills += 1
                    killed.insert(key)
                } else {
                    finished += 1
                    #expect(process.terminationStatus == 0, "round \(round): a writer of \(key) failed")
                }
            }
            // A killed writer's COMMIT may still wait in its server process's socket, to commit after the writer
            // is gone. A write takes its turn on the scope's lock after every transaction holding it, so an empty
            // one returns once those have committed or rolled back.
            _ = try store.apply([], by: .unverified("barrier"), condition: nil)
            let contents = try store.read()
            for key in Self.keys {
                let value = contents.entries[key]?.value.intValue ?? -1
                var allowed = Set(writers.filter { $0.key == key }.map(\.value))
                if killed.contains(key) { allowed.insert(previous[key]!) }
                #expect(allowed.contains(value), "round \(round): \(key) is \(value), not one of \(allowed.sorted())")
                previous[key] = value
            }
        }

        // A killed writer left no lock: a write goes through at once.
        let last = try await run(setCommand("k.a", 7))
        #expect(last.status == 0, "\(last.stderr)")
        let contents = try store.read()
        let log = try store.auditLog(limit: Int.max)
        // Every finished writer wrote once, and so did any killed one whose commit got through.
        let initial = Self.keys.count + 1
        #expect((initial + finished...initial + finished + kills).contains(log.count), "\(log.count) audit records")
        #expect(log.map(\.version) == Array(1...UInt64(log.count)), "one version per write, none skipped")
        #expect(contents.version == UInt64(log.count))
        for key in Self.keys {
            let records = log.filter { $0.key == key }
            #expect(zip(records, records.dropFirst()).allSatisfy { $0.new == $1.old }, "\(key)'s audit chain")
            let stored = try #require(contents.entries[key], "\(key) has no override")
            let lastRecord = try #require(records.last)
            #expect(stored.value == lastRecord.new, "\(key)")
            #expect(stored.version == lastRecord.version, "\(key)")
            #expect(stored.actor == lastRecord.actor && stored.time == lastRecord.time, "\(key)")
        }
        let committedAnyway = log.count - initial - finished
        print("PostgreSQL kill test: \(kills) writers killed with SIGKILL (the writes of \(committedAnyway) of them "
              + "committed all the same) and \(finished) finished, in \(round) rounds")
        #expect(finished > 0, "no writer ever finished: the rounds are too short to test a finished write")
    }
}
