import Foundation
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardRemote
import SwitchboardServer
import Testing

/// A throwaway folder with a copy of `Fixtures/flags`, a runtime store and a cache folder, removed when released.
final class TestProject: Sendable {
    /// The project folder.
    let path: String

    init() {
        path = NSTemporaryDirectory() + "switchboard-remote-test-" + UUID().uuidString
        let source = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("flags")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try! FileManager.default.copyItem(atPath: source.path, toPath: flags)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The definitions folder.
    var flags: String { path + "/flags" }
    /// The runtime store.
    var state: String { path + "/state/overrides.json" }
    /// The remote board's cache folder.
    var cache: String { path + "/cache" }

    /// A board on the project that never reads the machine's environment; without polling, changes made
    /// through it are still announced at once.
    func board() throws -> Board {
        try Board(inputs: BoardInputs(directory: flags, statePath: state, environment: [:]),
                  options: BoardOptions(pollInterval: nil))
    }
}

/// `switchboard serve` in this process on a loopback port (0: a free one); stop it with ``stop()``.
final class LiveServer: Sendable {
    let board: Board
    let server: FlagServer
    let port: Int

    init(board: Board, port: Int = 0, readToken: String? = nil) async throws {
        self.board = board
        server = FlagServer(board: board, configuration: ServerConfiguration(
            host: "127.0.0.1", port: port, readToken: readToken.flatMap(AccessToken.init),
            heartbeatInterval: .seconds(5), handlesSignals: false),
            logger: Logger(label: "test.server") { _ in SwiftLogNoOpLogHandler() })
        self.port = try await server.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    func stop() async { await server.stop() }
}

/// A configuration for tests: no environment, short backoff, a fast poll.
func testConfiguration(
    _ url: String, context: EvaluationContext = .empty, credentials: RemoteConfiguration.Credentials = .none,
    cache: String? = nil, poll: Duration? = .milliseconds(100)
) throws -> RemoteConfiguration {
    try RemoteConfiguration(
        baseURL: url, context: context, credentials: credentials, cacheDirectory: cache, pollInterval: poll,
        timeout: .seconds(2),
        backoff: RemoteConfiguration.Backoff(initial: .milliseconds(20), maximum: .milliseconds(300)),
        environment: [:])
}

/// A logger whose records a test can read.
func recordingLogger(_ handler: InMemoryLogHandler) -> Logger {
    Logger(label: "test.remote") { _ in handler }
}

/// A port nobody listens on: bound once by a server that then stopped.
func closedPort() async throws -> Int {
    let project = TestProject()
    let server = try await LiveServer(board: try project.board())
    let port = server.port
    await server.stop()
    return port
}
