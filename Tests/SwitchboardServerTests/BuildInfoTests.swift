import Hummingbird
import HummingbirdTesting
import Prometheus
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The server reports the version `switchboard --version` prints: in `/healthz` and as a build-info gauge.
@Suite struct BuildInfoTests {
    let project = TestProject(fixture: "flags")

    @Test func healthNamesTheVersion() async throws {
        try await FlagServer(board: project.board()).makeApplication().test(.router) { client in
            let health = try await client.send(.get, "/healthz").json.objectValue ?? [:]
            #expect(health["version"] == .string(SwitchboardVersion.current))
        }
    }

    @Test func metricsCarryTheBuildInfoGauge() async throws {
        let registry = PrometheusCollectorRegistry()
        let board = try project.board(metricsFactory: FlagServer.prometheusFactory(registry: registry))
        let server = FlagServer(board: board, configuration: ServerConfiguration(prometheus: registry))
        try await server.makeApplication().test(.router) { client in
            let text = try await client.send(.get, "/metrics").text
            #expect(text.contains("# TYPE switchboard_build_info gauge\n"))
            #expect(text.contains("switchboard_build_info{version=\"\(SwitchboardVersion.current)\"} 1.0\n"))
        }
    }

    @Test func theVersionIsSemanticVersionText() {
        #expect(SwitchboardVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?/) != nil)
    }
}
