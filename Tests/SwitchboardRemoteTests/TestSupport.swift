import Foundation
import InMemoryLogging
import Locking
import Logging
import Switchboard
import SwitchboardRemote
import SwitchboardServer
import SwitchboardTestSupport
import Testing

extension TestProject {
    /// A throwaway project whose `flags/` is a copy of this target's `Fixtures/<fixture>`, removed when released.
    convenience init(fixture: String) {
        let source = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(fixture)
        self.init(copyingFlags: source.path, prefix: "switchboard-remote-test")
    }

    /// The remote board's cache folder.
    var cache: String { path + "/cache" }

    /// A board on the project that never reads the machine's environment; without polling, changes made
    /// through it are still announced at once.
    func board() throws -> Board {
        try Board(inputs: BoardInputs(directory: flags, statePath: storePath, environment: [:]),
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
    cache: String? = nil, poll: Duration? = .milliseconds(100), timeout: Duration = .seconds(2)
) throws -> RemoteConfiguration {
    try RemoteConfiguration(
        baseURL: url, context: context, credentials: credentials, cacheDirectory: cache, pollInterval: poll,
        timeout: timeout,
        backoff: RemoteConfiguration.Backoff(initial: .milliseconds(20), maximum: .milliseconds(300)),
        environment: [:])
}

/// A logger whose records a test can read.
func recordingLogger(_ handler: InMemoryLogHandler) -> Logger {
    Logger(label: "test.remote") { _ in handler }
}

/// A port nobody listens on: bound once by a server that then stopped.
func closedPort() async throws -> Int {
    let project = TestProject(fixture: "flags")
    let server = try await LiveServer(board: try project.board())
    let port = server.port
    await server.stop()
    return port
}

/// Waits until `remote` is settled (``RemoteBoard/waitUntilSettled(timeout:)``), its time counted as
/// ``waitUntil(_:timeout:interval:file:line:_:)`` counts it, so a paused machine does not use up the wait.
func waitUntilSettled(_ remote: RemoteBoard, file: String = #fileID, line: Int = #line) async throws {
    try await waitUntil("the board settled", file: file, line: line) { await remote.waitUntilSettled(timeout: .zero) }
}

/// A board's cache folder holding the answer `server` gives now for the empty context: filled by a board that saw
/// the server live and then stopped.
func filledCache(for server: FaultServer) async throws -> TemporaryDirectory {
    let cache = TemporaryDirectory(prefix: "switchboard-remote-cache")
    let filler = RemoteBoard(try testConfiguration(server.url, cache: cache.path, poll: nil))
    try await waitUntil("the cache filled") { filler.status == .live }
    await filler.stop()
    return cache
}

/// Reads one int key of a board every millisecond on a task of its own and remembers every value it saw, so a
/// test can say that a value was never lost (never the caller's default) while a server failed.
final class ValueSampler: Sendable {
    private let seen = Locked<Set<Int>>([])
    private let task: Task<Void, Never>

    init(_ read: @escaping @Sendable () -> Int) {
        let seen = seen
        task = Task {
            while !Task.isCancelled {
                let value = read()
                seen.withLock { _ = $0.insert(value) }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Every value read so far.
    var values: Set<Int> { seen.withLock { $0 } }
}
