import AsyncHTTPClient
import Metrics
import MetricsTestKit
import NIOCore
import NIOHTTP1
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// A program that embeds the server and bootstraps its own `MetricsSystem` gets the server's figures and the
/// board's there.
@Suite struct ServerMetricsTests {
    /// The process's metrics system, bootstrapped once for this test target with swift-metrics' test backend.
    /// Every other test here passes its own factory, so nothing else lands in it.
    static let system: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()

    @Test func figuresReachTheBootstrappedMetricsSystem() async throws {
        let metrics = Self.system
        // Default options: the board, and the server through it, use the bootstrapped system.
        let board = try Board(inputs: BoardInputs(
            definitions: .sources([("flags/test.yaml", "namespace: emb\nflags:\n  on: {type: bool, default: true}\n")]),
            environment: [:], store: InMemoryStore()),
            options: BoardOptions(pollInterval: nil))
        let server = FlagServer(board: board, configuration: ServerConfiguration(host: "127.0.0.1", port: 0))
        let port = try await server.start()
        do {
            for path in ["/ofrep/v1/evaluate/flags/emb.on", "/ofrep/v1/evaluate/flags/emb.off"] {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: #"{"context": {}}"#))
                _ = try await HTTPClient.shared.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
            }
            try board.set("emb.on", to: false, actor: "test")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        #expect(try metrics.expectCounter("switchboard_evaluations_total", [("reason", "STATIC")]).totalValue >= 1)
        #expect(try metrics.expectCounter("switchboard_flag_evaluations_total",
                                          [("key", "emb.on"), ("reason", "STATIC")]).totalValue == 1)
        #expect(try metrics.expectCounter("switchboard_evaluation_errors_total",
                                          [("error_type", "FLAG_NOT_FOUND")]).totalValue >= 1)
        #expect(try metrics.expectCounter("switchboard_http_requests_total", [("status", "200")]).totalValue >= 1)
        #expect(try metrics.expectTimer("switchboard_ofrep_request_duration_seconds", [("route", "flag")])
            .values.count >= 2)
        #expect(try metrics.expectCounter("switchboard_runtime_writes_total").totalValue >= 1)
    }
}
