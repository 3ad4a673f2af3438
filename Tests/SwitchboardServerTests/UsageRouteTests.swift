import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `GET /v1/usage` on a server running for real on an ephemeral loopback port: single and bulk evaluations
/// counted per key, unknown keys counted there and in `switchboard_unknown_key_lookups_total`, and the admin
/// token required as for the rest of `/v1`.
@Suite struct UsageRouteTests {
    let project = TestProject(fixture: "flags")
    static let authorization: HTTPFields = [.authorization: "Bearer admin-secret"]

    @Test func reportsEvaluationsAndUnknownKeys() async throws {
        try await LiveServer.with(project, configure: { $0.adminToken = AccessToken("admin-secret") }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                for _ in 0..<2 {
                    _ = try await client.post("/ofrep/v1/evaluate/flags/app.new_flow", body: emptyContext)
                }
                for _ in 0..<3 {
                    let missing = try await client.post("/ofrep/v1/evaluate/flags/app.new_flwo", body: emptyContext)
                    #expect(missing.status == .notFound)
                }
                // A bulk evaluation counts one evaluation of every flag it answers with.
                let bulk = try await client.post("/ofrep/v1/evaluate/flags", body: emptyContext)
                #expect(bulk.status == .ok)

                let response = try await client.get("/v1/usage", headers: Self.authorization)
                let text = response.body.map { String(buffer: $0) } ?? ""
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let usage = try UsageReport(json: Data(text.utf8))
                #expect(UsageReport.seconds(of: usage.since) != nil)
                #expect(usage.keys.map(\.key) == live.board.registry.keys)
                let newFlow = try #require(usage.keys.first { $0.key == "app.new_flow" })
                #expect(newFlow.evaluations == 3)
                #expect(newFlow.lastEvaluated.flatMap(UsageReport.seconds(of:)) != nil)
                #expect(usage.keys.filter { $0.key != "app.new_flow" }.allSatisfy { $0.evaluations == 1 })
                #expect(usage.unknown == [.init(key: "app.new_flwo", lookups: 3)])

                // The JSON shape, field by field.
                let document = try #require(try Value(jsonBytes: Array(text.utf8)).objectValue)
                #expect(Set(document.keys) == ["since", "keys", "unknown"])
                let first = try #require(document["keys"]?.listValue?.first?.objectValue)
                #expect(Set(first.keys) == ["key", "last_evaluated", "evaluations"])
                let unknown = try #require(document["unknown"]?.listValue?.first?.objectValue)
                #expect(Set(unknown.keys) == ["key", "lookups"])

                #expect(live.metrics.contains(#"switchboard_unknown_key_lookups_total{key="app.new_flwo"} 3"#))
            }
        }
    }

    @Test func needsAToken() async throws {
        try await LiveServer.with(project, configure: {
            $0.adminToken = AccessToken("admin-secret")
            $0.readToken = AccessToken("read-secret")
        }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                let none = try await client.get("/v1/usage")
                #expect(none.status == .unauthorized)
                // A GET route: the role read may use it.
                let read = try await client.get("/v1/usage", headers: [.authorization: "Bearer read-secret"])
                #expect(read.status == .ok)
                let wrong = try await client.get("/v1/usage", headers: [.authorization: "Bearer guess"])
                #expect(wrong.status == .unauthorized)
                let admin = try await client.get("/v1/usage", headers: Self.authorization)
                #expect(admin.status == .ok)
            }
        }
    }
}
