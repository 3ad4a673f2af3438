import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import Metrics
import Prometheus
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport

/// Runs `test` against a server with the admin token `admin` over a copy of the `flags` fixture, through the
/// router (no socket), with the board it serves.
func withAdminServer(
    _ test: @escaping @Sendable (Board, any TestClientProtocol) async throws -> Void
) async throws {
    let project = TestProject(fixture: "flags")
    let board = try project.board()
    let server = FlagServer(board: board, configuration: ServerConfiguration(adminToken: AccessToken("admin")))
    try await server.makeApplication().test(.router) { client in try await test(board, client) }
}

extension TestProject {
    /// A throwaway project whose `flags/` is a copy of this target's `Fixtures/<fixture>`, removed when released.
    convenience init(fixture: String) {
        let source = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(fixture)
        self.init(copyingFlags: source.path, prefix: "switchboard-server-test")
    }


    /// A board on the project. Without polling, tests decide when changes are read; the process environment is
    /// left out so that no `SWITCHBOARD_…` variable of the machine leaks in.
    /// Its logs go to `logger` (by default nowhere) and its metrics to `metricsFactory` (by default nowhere).
    func board(
        environment: [String: String] = [:], polling: Duration? = nil, logger: Logger = quietLogger,
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance
    ) throws -> Board {
        try Board(inputs: BoardInputs(directory: flags, statePath: storePath, environment: environment),
                  options: BoardOptions(pollInterval: polling, watchDefinitions: polling != nil, logger: logger,
                                        metricsFactory: metricsFactory))
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    var json: Value {
        get throws { try Value(jsonBytes: Array(body.readableBytesView)) }
    }

    /// The body as text.
    var text: String { String(buffer: body) }
}

extension ByteBuffer {
    /// A JSON request body.
    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
}

/// The empty-context request body most OFREP tests send.
let emptyContext = ByteBuffer(string: #"{"context":{}}"#)

extension TestClientProtocol {
    /// Sends a request and returns the response. `execute`'s result type is generic, which leaves the compiler
    /// guessing inside `#expect`; this names it.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: headers, body: body) { $0 }
    }
}

/// A logger that drops everything.
let quietLogger = Logger(label: "switchboard") { _ in SwiftLogNoOpLogHandler() }

/// A logger that keeps what a server logs for the test to read, instead of printing it.
func recordingLogger(_ handler: InMemoryLogHandler = InMemoryLogHandler()) -> Logger {
    Logger(label: "switchboard.server") { _ in handler }
}

/// A server running for real on an ephemeral loopback port, its metrics in a Prometheus registry of its own.
struct LiveServer: Sendable {
    let server: FlagServer
    let board: Board
    let port: Int
    let registry: PrometheusCollectorRegistry

    /// Starts a server on `project` with `configure` applied to its configuration, runs `body`, and stops the
    /// server whatever happens.
    static func with(
        _ project: TestProject, logger: Logger = quietLogger, configure: (inout ServerConfiguration) -> Void,
        _ body: (LiveServer) async throws -> Void
    ) async throws {
        let registry = PrometheusCollectorRegistry()
        let board = try project.board(polling: .milliseconds(200),
                                      metricsFactory: FlagServer.prometheusFactory(registry: registry))
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, prometheus: registry)
        configure(&configuration)
        let server = FlagServer(board: board, configuration: configuration, logger: logger)
        let port = try await server.start()
        do {
            try await body(LiveServer(server: server, board: board, port: port, registry: registry))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The metrics text, read from the registry rather than over a connection (which could be refused).
    var metrics: String { registry.emitToString() }
}

/// A whole `GET` request that keeps the connection open.
func getRequest(_ path: String) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
}
