import Foundation
import Locking
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// `switchboard serve` replicas under OFREP traffic while their database restarts or is away, on a cluster of the
/// test's own: every evaluation is answered with the last value, health says `degraded` while the database is
/// away, `switchboard set` fails cleanly then, and every replica serves the first write after the database
/// returns.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote),
       .enabled(if: TestCluster.serverIsInstalled, TestCluster.skipNote))
struct ReplicaOutageTests {
    @Test func replicasServeThroughARestartUnderTrafficAndCatchUpAfterIt() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let (directory, flags) = TestDatabase.project()
        let set = SetCommand(flags: flags, url: cluster.url, scope: "restart")
        try await set.run("limit", "10", actor: "before")
        let replicas = try await Self.replicas(2, flags: flags, url: cluster.url, scope: "restart", in: directory)
        defer { for replica in replicas { replica.stop() } }

        let traffic = OFREPTraffic(key: "limit", ports: replicas.map(\.port))
        try await traffic.waitForAnswers(20, "evaluations before the restart")
        let beforeRestart = traffic.count
        try await cluster.restart()
        let duringRestart = traffic.count - beforeRestart
        #expect(duringRestart > 0, "the replicas were asked nothing while the database restarted")
        try await traffic.waitForAnswers(20, "evaluations after the restart")

        try await set.run("limit", "11", actor: "after")
        let catchUp = try await Self.timeUntil(replicas, serve: .int(11))
        print("catch-up after pg_ctl restart (\(duringRestart) evaluations answered during it): every replica "
              + "served the first write \(Self.format(catchUp)) after `switchboard set` returned")
        let answers = await traffic.stop()
        Self.expectServed(answers, [10, 11])
        for replica in replicas {
            try await waitUntil("replica \(replica.port) is healthy again") { try await replica.health() == "ok" }
        }
        #expect(try PostgresStore(url: cluster.url, scope: "restart").auditLog(limit: 10).map(\.actor)
                    == ["before", "after"])
    }

    @Test func duringAnOutageReplicasServeTheLastValuesAndWritesFailCleanly() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let port = try #require(URLComponents(string: cluster.url)?.port)
        let (directory, flags) = TestDatabase.project()
        let set = SetCommand(flags: flags, url: cluster.url, scope: "pause")
        try await set.run("limit", "10", actor: "before")
        let replicas = try await Self.replicas(2, flags: flags, url: cluster.url, scope: "pause", in: directory)
        defer { for replica in replicas { replica.stop() } }
        let traffic = OFREPTraffic(key: "limit", ports: replicas.map(\.port))
        try await traffic.waitForAnswers(20, "evaluations before the outage")

        try await cluster.pause()
        for replica in replicas {
            try await waitUntil("replica \(replica.port) reports the outage") {
                try await replica.health() == "degraded"
            }
        }
        let arguments = set.arguments("limit", "12", actor: "during")
        let refused = try await onOwnThread { try runSwitchboard(arguments) }
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix(
            "error: cannot connect to PostgreSQL at postgres://switchboard@127.0.0.1:\(port)/switchboard"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: "), "\(refused.stderr)")
        #expect(!refused.stderr.contains(":switchboard@"), "the password must not show: \(refused.stderr)")
        #expect(try await replicas[0].put("limit", 13, actor: "during").status == 503)
        try await traffic.waitForAnswers(20, "evaluations during the outage")

        try await cluster.resume()
        try await set.run("limit", "14", actor: "after")
        let catchUp = try await Self.timeUntil(replicas, serve: .int(14))
        print("catch-up after an outage (pause, resume): every replica served the first write "
              + "\(Self.format(catchUp)) after `switchboard set` returned")
        let answers = await traffic.stop()
        Self.expectServed(answers, [10, 14])
        for replica in replicas {
            try await waitUntil("replica \(replica.port) is healthy again") { try await replica.health() == "ok" }
        }
        let log = try PostgresStore(url: cluster.url, scope: "pause").auditLog(limit: 10)
        #expect(log.map(\.actor) == ["before", "after"], "nothing was written during the outage")
        #expect(log.map(\.version) == [1, 2])
    }

    /// `switchboard set --store URL --scope SCOPE` on a project.
    struct SetCommand {
        var flags: String
        var url: String
        var scope: String

        func arguments(_ key: String, _ value: String, actor: String) -> [String] {
            ["set", "--flags", flags, "--store", url, "--scope", scope, "--actor", actor, key, value]
        }

        /// Runs it, and records an issue unless it succeeds.
        func run(_ key: String, _ value: String, actor: String) async throws {
            let arguments = arguments(key, value, actor: actor)
            let result = try await onOwnThread { try runSwitchboard(arguments) }
            #expect(result.status == 0, "switchboard set \(key) \(value): \(result.stderr)")
        }
    }

    static func replicas(_ count: Int, flags: String, url: String, scope: String, in directory: TemporaryDirectory)
        async throws -> [Replica] {
        var replicas: [Replica] = []
        for index in 0..<count {
            replicas.append(try await Replica(flags: flags, url: url, scope: scope,
                                              log: directory.file("replica-\(index).log")))
        }
        return replicas
    }

    /// How long it takes until every replica serves `value`, waiting with a generous deadline.
    static func timeUntil(_ replicas: [Replica], serve value: Value) async throws -> Duration {
        let start = ContinuousClock.now
        for replica in replicas {
            try await waitUntil("replica \(replica.port) serves \(value)", interval: .milliseconds(5)) {
                try await replica.value(of: "limit") == value
            }
        }
        return ContinuousClock.now - start
    }

    static func format(_ duration: Duration) -> String {
        String(format: "%.0f ms", duration.milliseconds)
    }

    /// Every answer succeeded, and each replica served the values in order: the first until it served the second,
    /// then only the second.
    static func expectServed(_ answers: [OFREPTraffic.Answer], _ values: [Int]) {
        #expect(answers.allSatisfy { $0.status == 200 },
                "failed evaluations: \(answers.filter { $0.status != 200 }.prefix(5))")
        for (port, served) in Dictionary(grouping: answers, by: \.port) {
            let sequence = served.map { $0.value?.intValue ?? -1 }
            let switched = sequence.firstIndex(of: values[1]) ?? sequence.endIndex
            #expect(sequence[..<switched].allSatisfy { $0 == values[0] }
                        && sequence[switched...].allSatisfy { $0 == values[1] },
                    "replica \(port) served \(Self.runs(of: sequence)), not \(values[0]) and then \(values[1])")
        }
    }

    /// `10 ×52, 11 ×3`: a sequence as runs of equal values.
    static func runs(of sequence: [Int]) -> String {
        var runs: [(Int, Int)] = []
        for value in sequence {
            if runs.last?.0 == value { runs[runs.count - 1].1 += 1 } else { runs.append((value, 1)) }
        }
        return runs.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")
    }
}

/// OFREP evaluations of one key, sent to each replica in turn as soon as the last one answered, until stopped.
final class OFREPTraffic: Sendable {
    /// One evaluation's outcome.
    struct Answer: Sendable, CustomStringConvertible {
        var port: Int
        /// The HTTP status; `nil` when the request failed.
        var status: UInt?
        var value: Value?
        var error: String?

        var description: String {
            "port \(port): " + (error ?? "\(status.map(String.init) ?? "-") \(value.map(\.json) ?? "no value")")
        }
    }

    private let answers: Locked<[Answer]>
    private let stopped: Locked<Bool>
    private let task: Task<Void, Never>

    /// Starts sending.
    init(key: String, ports: [Int]) {
        let answers = Locked<[Answer]>([])
        let stopped = Locked(false)
        self.answers = answers
        self.stopped = stopped
        task = Task {
            while !stopped.withLock({ $0 }) {
                for port in ports {
                    let answer: Answer
                    do {
                        let evaluation = try await Replica.evaluate(key, on: port)
                        answer = Answer(port: port, status: evaluation.status, value: evaluation.value)
                    } catch {
                        answer = Answer(port: port, error: "\(error)")
                    }
                    answers.withLock { $0.append(answer) }
                }
            }
        }
    }

    deinit {
        // A test that failed before stopping the traffic leaves no requests running after it.
        stopped.withLock { $0 = true }
    }

    /// How many evaluations have been answered so far.
    var count: Int { answers.withLock { $0.count } }

    /// Waits until `count` more evaluations have been answered.
    func waitForAnswers(_ count: Int, _ what: String) async throws {
        let target = answers.withLock { $0.count } + count
        try await waitUntil(what) { answers.withLock { $0.count } >= target }
    }

    /// Stops sending, and returns every answer in order.
    func stop() async -> [Answer] {
        stopped.withLock { $0 = true }
        await task.value
        return answers.withLock { $0 }
    }
}
