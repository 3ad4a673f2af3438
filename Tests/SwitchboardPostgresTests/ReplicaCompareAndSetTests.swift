import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// Two admin clients race, over HTTP, to `PUT` the same key with the same `If-Match` version, each on another
/// replica of one database: the database decides, so exactly one wins and the other gets 412, every round.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct ReplicaCompareAndSetTests {
    @Test func racingPutsWithTheSameVersionHaveOneWinnerEachRound() async throws {
        let url = try #require(TestDatabase.url)
        let (directory, flags) = TestDatabase.project()
        let scope = "cas-\(UUID().uuidString)"
        let replicas = [
            try await Replica(flags: flags, url: url, scope: scope, log: directory.file("replica-a.log")),
            try await Replica(flags: flags, url: url, scope: scope, log: directory.file("replica-b.log")),
        ]
        defer { for replica in replicas { replica.stop() } }
        let rounds = 100
        var version: UInt64 = 0
        var winners: [Value] = []
        for round in 0..<rounds {
            // Each client writes a value that names it; they swap replicas every round.
            let values: [Value] = [.string("round \(round) client a"), .string("round \(round) client b")]
            let (first, second) = round % 2 == 0 ? (replicas[0], replicas[1]) : (replicas[1], replicas[0])
            let expected = version
            async let a = first.put("motto", values[0], ifMatch: expected, actor: "a")
            async let b = second.put("motto", values[1], ifMatch: expected, actor: "b")
            let writes = try await [a, b]
            try #require(writes.map(\.status).sorted() == [200, 412],
                         "round \(round): the PUTs answered \(writes.map(\.status))")
            let winner = writes[0].status == 200 ? 0 : 1
            // Every write in the scope bumps its version: the winner's ETag is the round's.
            #expect(writes[winner].version == UInt64(round + 1), "round \(round)")
            version = try #require(writes[winner].version)
            winners.append(values[winner])
        }
        for replica in replicas {
            try await waitUntil("replica \(replica.port) serves the last winner") {
                try await replica.value(of: "motto") == winners.last
            }
        }
        let log = try PostgresStore(url: url, scope: scope).auditLog(limit: rounds * 2)
        #expect(log.map(\.new) == winners, "the audit log holds the winners alone, in order")
    }
}
