import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import Testing

/// `GET /healthz`, `GET /metrics` and `GET /ping`.
@Suite struct HealthAndMetricsTests {
    let project = TestProject()

    @Test func reportsHealthyWithTheRevision() async throws {
        let board = try project.board()
        try await FlagServer(board: board).makeApplication().test(.router) { client in
            let response = try await client.send(.get, "/healthz")
            #expect(response.status == .ok)
            #expect(try response.json == [
                "status": "ok", "revision": .int(Int(board.revision)), "definitions": 6, "lastReloadError": .null,
            ])
        }
    }

    @Test func reportsDegradedWhileAnEditDoesNotValidate() async throws {
        let board = try project.board()
        let good = try #require(project.read("flags/app.yaml"))
        project.write("flags/app.yaml", good + "  broken:\n    type: int\n    default: many\n")
        board.reload()
        try await FlagServer(board: board).makeApplication().test(.router) { client in
            let health = try await client.send(.get, "/healthz").json.objectValue ?? [:]
            #expect(health["status"] == "degraded")
            #expect(health["revision"] == .int(Int(board.revision)))
            let error = try #require(health["lastReloadError"]?.stringValue)
            #expect(error.contains("app.yaml"))
            #expect(error.contains("app.broken"))
            #expect(health["reloadErrors"]?.listValue?.count == 1)
            // The last good definitions are still served.
            let served = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio",
                                                  body: emptyContext)
            #expect(served.status == .ok)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains("switchboard_degraded 1\n"))
        }
        project.write("flags/app.yaml", good)
        board.reload()
        #expect(board.lastReloadErrors.isEmpty)
    }

    @Test func exposesPrometheusMetrics() async throws {
        let board = try project.board()
        try board.set("app.ratio", to: 2, actor: "test")
        try await FlagServer(board: board).makeApplication().test(.router) { client in
            for key in ["app.new_flow", "app.new_flow", "app.ratio", "app.nope"] {
                _ = try await client.send(.post, "/ofrep/v1/evaluate/flags/\(key)", body: emptyContext)
            }
            _ = try await client.send(.post, "/ofrep/v1/evaluate/flags", body: emptyContext)
            _ = try await client.send(.get, "/v1/flags")
            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = response.text
            // Two single STATIC evaluations plus five in bulk; the runtime override counted as itself.
            #expect(text.contains("switchboard_evaluations_total{reason=\"STATIC\"} 7\n"))
            #expect(text.contains("switchboard_evaluations_total{reason=\"OVERRIDE\"} 2\n"))
            #expect(text.contains("switchboard_evaluations_total{reason=\"ERROR\"} 1\n"))
            #expect(text.contains("switchboard_http_requests_total{status=\"200\"} 4\n"))
            #expect(text.contains("switchboard_http_requests_total{status=\"403\"} 1\n"))
            #expect(text.contains("switchboard_http_requests_total{status=\"404\"} 1\n"))
            #expect(text.contains("# TYPE switchboard_reloads_total counter\nswitchboard_reloads_total 0\n"))
            #expect(text.contains("switchboard_reload_errors_total 0\n"))
            #expect(text.contains("switchboard_revision \(board.revision)\n"))
            #expect(text.contains("switchboard_definitions 6\n"))
            #expect(text.contains("switchboard_degraded 0\n"))
        }
    }

    @Test func answersPingWithAConstant() async throws {
        try await FlagServer(board: project.board()).makeApplication().test(.router) { client in
            let response = try await client.send(.get, "/ping")
            #expect(response.status == .ok)
            #expect(response.text == "pong\n")
        }
    }
}
