import Metrics
import Prometheus
import Switchboard
import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// The samples of "Running the server" (SwitchboardServer's catalog).
@Suite struct ServerSamples {
    @Test func serveABoard() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }

        let board = try Board(directory: flags, options: BoardOptions(pollInterval: .milliseconds(200)))
        let server = FlagServer(board: board, configuration: ServerConfiguration(port: 0))
        let port = try await server.start()                  // the port the system chose
        print("serving on", port)
        await server.stop()
    }

    @Test func serveMetrics() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }

        let registry = PrometheusCollectorRegistry()
        var options = BoardOptions()
        options.metricsFactory = FlagServer.prometheusFactory(registry: registry)   // or bootstrap MetricsSystem with it
        let board = try Board(directory: flags, options: options)
        let server = FlagServer(board: board, configuration: ServerConfiguration(port: 0, prometheus: registry))
        _ = try await server.start()
        #expect(registry.emitToString().contains("switchboard_build_info"))
        await server.stop()
    }
}
