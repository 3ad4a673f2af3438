import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// `switchboard set KEY VALUE --for 3s` on PostgreSQL, with two replicas serving the scope: both serve the
/// override, then, 3 s later and with no write by anyone, the default; `switchboard log` shows the expiry once,
/// derived from the one audit row.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresOverrideExpiryLiveTests {
    @Test func anOverrideSetForThreeSecondsIsGoneThreeSecondsLaterOnEveryReplica() async throws {
        let url = try #require(TestDatabase.url)
        let (directory, flags) = TestDatabase.project()
        let scope = "expiry-\(UUID().uuidString)"
        var replicas: [Replica] = []
        defer { for replica in replicas { replica.stop() } }
        for index in 0..<2 {
            replicas.append(try await Replica(flags: flags, url: url, scope: scope,
                                              log: directory.file("replica-\(index).log")))
        }
        let cli = { (arguments: [String]) in
            try await onOwnThread {
                try runSwitchboard(arguments + ["--flags", flags, "--store", url, "--scope", scope])
            }
        }

        let set = try await cli(["set", "limit", "42", "--for", "3s"])
        #expect(set.status == 0, "\(set.stderr)")
        // The expiry comes from the stored record of the write: a `get` after it may already come too late on a
        // loaded machine.
        let store = try PostgresStore(url: url, scope: scope)
        let expiresAt = try #require(try store.auditLog(limit: 1).first?.expiresAt)
        let expiry = try #require(Timestamp.parseZoned(expiresAt))
        for replica in replicas {
            // Seen while it lasts (a loaded machine may poll after the 3 s; the expiry is what this test is about).
            try await waitUntil("a replica serves the override, unless its time has passed") {
                try await replica.value(of: "limit") == 42 || Date().timeIntervalSince1970 >= expiry
            }
        }
        for (index, replica) in replicas.enumerated() {
            try await waitUntil("replica \(index) serves the default", interval: .milliseconds(20)) {
                try await replica.value(of: "limit") == 5
            }
            let late = Date().timeIntervalSince1970 - expiry
            print("override expiry (PostgreSQL): replica \(index) served the default \(Int(late * 1000)) ms "
                + "after expires_at")
            #expect(late >= -0.05, "never before its time")
        }
        #expect(try await cli(["get", "limit"]).stdout == "5\n")
        let log = try Value(json: try await cli(["log", "--json"]).stdout).listValue ?? []
        #expect(log.map { $0.objectValue?["event"] ?? .null } == [.null, "expired"])
        #expect(try store.auditLog(limit: 10).count == 1)
    }
}
