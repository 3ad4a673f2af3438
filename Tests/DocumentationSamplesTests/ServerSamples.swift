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

    @Test func connectionSettings() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        var configuration = ServerConfiguration(port: 8016)
        configuration.headerTimeout = .seconds(5)
        configuration.idleTimeout = .seconds(30)
        configuration.maxConnections = 2_000
        let server = FlagServer(board: board, configuration: configuration)
        _ = server                                         // not started here: port 8016 may be in use

        let limit = (try? DescriptorLimit.raiseSoftToHard()) ?? DescriptorLimit.current()
        print("up to", limit.connectionCap(for: configuration.maxConnections), "connections")
        #expect(limit.connectionCap(for: configuration.maxConnections) <= 2_000)
    }
}
