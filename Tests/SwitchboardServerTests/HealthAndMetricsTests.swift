import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `GET /healthz`, `GET /metrics` and `GET /ping`.
@Suite struct HealthAndMetricsTests {
    let project = TestProject(fixture: "flags")
    /// What `/metrics` renders, as `switchboard serve` sets it up: the board's metrics and the server's in one
    /// Prometheus registry.
    let registry = PrometheusCollectorRegistry()

    /// A board whose metrics go to ``registry``.
    func board() throws -> Board {
        try project.board(metricsFactory: FlagServer.prometheusFactory(registry: registry))
    }

    /// A server on `board` that serves ``registry`` at `/metrics`.
    func server(_ board: Board) -> FlagServer {
        FlagServer(board: board, configuration: ServerConfiguration(prometheus: registry))
    }

    @Test func reportsHealthyWithTheRevision() async throws {
        let board = try project.board()
        try await FlagServer(board: board).makeApplication().test(.router) { client in
            let response = try await client.send(.get, "/healthz")
            #expect(response.status == .ok)
            #expect(try response.json == [
                "status": "ok", "revision": .int(Int(board.revision)), "definitions": 6, "lastReloadError": .null,
                "version": .string(SwitchboardVersion.current),
            ])
        }
    }

    @Test func reportsDegradedWhileAnEditDoesNotValidate() async throws {
        let board = try board()
        let good = try #require(project.read("flags/app.yaml"))
        project.write("flags/app.yaml", good + "  broken:\n    type: int\n    default: many\n")
        board.reload()
        try await server(board).makeApplication().test(.router) { client in
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
            #expect(metrics.contains("switchboard_degraded 1.0\n"))
        }
        project.write("flags/app.yaml", good)
        board.reload()
        #expect(board.status.reloadErrors.isEmpty)
    }

    @Test func exposesPrometheusMetrics() async throws {
        let board = try board()
        try board.set("app.ratio", to: 2, actor: "test")
        try await server(board).makeApplication().test(.router) { client in
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
            // Per key, for defined keys only: `app.nope` has no series there, but one of unknown keys' lookups.
            #expect(text.contains("switchboard_flag_evaluations_total{key=\"app.new_flow\",reason=\"STATIC\"} 3\n"))
            #expect(text.contains("switchboard_flag_evaluations_total{key=\"app.ratio\",reason=\"OVERRIDE\"} 2\n"))
            #expect(!text.contains("switchboard_flag_evaluations_total{key=\"app.nope\""))
            #expect(text.contains("switchboard_unknown_key_lookups_total{key=\"app.nope\"} 1\n"))
            #expect(text.contains("switchboard_evaluation_errors_total{error_type=\"FLAG_NOT_FOUND\"} 1\n"))
            #expect(text.contains("# TYPE switchboard_ofrep_request_duration_seconds histogram\n"))
            #expect(text.contains("switchboard_ofrep_request_duration_seconds_count{route=\"flag\"} 4\n"))
            #expect(text.contains("switchboard_ofrep_request_duration_seconds_count{route=\"flags\"} 1\n"))
            // The board's own: the set above published a revision; nothing failed.
            #expect(text.contains("# TYPE switchboard_reloads_total counter\nswitchboard_reloads_total 1\n"))
            #expect(text.contains("switchboard_runtime_writes_total 1\n"))
            #expect(text.contains("switchboard_reload_errors_total 0\n"))
            #expect(text.contains("switchboard_store_outages_total 0\n"))
            // Gauges are floating point in Prometheus text.
            #expect(text.contains("switchboard_revision \(board.revision).0\n"))
            #expect(text.contains("switchboard_definitions 6.0\n"))
            #expect(text.contains("switchboard_degraded 0.0\n"))
        }
    }

    @Test func answersPingWithAConstant() async throws {
        try await FlagServer(board: project.board()).makeApplication().test(.router) { client in
            let response = try await client.send(.get, "/ping")
            #expect(response.status == .ok)
            #expect(response.text == "pong\n")
        }
    }

    @Test func saysWhereMetricsGoWhenItServesNoRegistry() async throws {
        try await FlagServer(board: project.board()).makeApplication().test(.router) { client in
            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .notFound)
            #expect(response.text.contains("ServerConfiguration.prometheus"))
        }
    }
}
