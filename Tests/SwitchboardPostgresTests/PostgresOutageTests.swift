import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// A database outage, on a cluster of the test's own (so other tests keep theirs): lookups keep the last values,
/// writes fail cleanly, health says why, and every board catches up when the database returns.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote),
       .enabled(if: TestCluster.serverIsInstalled, TestCluster.skipNote))
struct PostgresOutageTests {
    @Test func boardsKeepServingThroughAnOutageAndCatchUpAfterIt() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let url = cluster.url
        let scope = "outage"
        let writer = try TestDatabase.board(PostgresStore(url: url, scope: scope))
        let reader = try TestDatabase.board(
            PostgresStore(endpoint: .init(url: url), scope: scope, pollInterval: .seconds(1)), polling: .seconds(1))
        try writer.set("limit", to: 10, actor: "before")
        try await waitUntil("the reader sees the first write") { reader.int("limit", default: 0) == 10 }

        try await cluster.pause()
        #expect(throws: Board.SetError.self) { try writer.set("limit", to: 11, actor: "during") }
        try await waitUntil("the reader reports the outage") { reader.status.storeProblem != nil }
        let problem = reader.status.storeProblem?.description ?? ""
        #expect(problem.contains("127.0.0.1"), "\(problem)")
        #expect(!problem.contains(":switchboard@"), "the password must not show: \(problem)")
        #expect(reader.int("limit", default: 0) == 10)

        try await cluster.resume()
        // A write made while the reader may still be reconnecting reaches it once it has.
        try await waitUntil("the writer writes again") {
            (try? writer.set("limit", to: 12, actor: "after")) != nil
        }
        try await waitUntil("the reader catches up") { reader.int("limit", default: 0) == 12 }
        try await waitUntil("the reader is healthy") { reader.status.storeProblem == nil }
        #expect(try writer.auditLog().map(\.actor) == ["before", "after"])
    }
}
