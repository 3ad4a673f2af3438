public import Hummingbird
import Foundation
import Locking
public import Logging
import NIOCore
public import ServiceLifecycle
public import Switchboard
import Tracing
import UnixSignals

/// Serves a `Board` over HTTP: OFREP evaluation, an admin API, health and metrics.
///
/// ```swift
/// let board = try Board(directory: "flags", options: BoardOptions(pollInterval: .milliseconds(200)))
/// let server = FlagServer(board: board, configuration: ServerConfiguration(port: 0))
/// let port = try await server.start()      // listening on 127.0.0.1:<port>
/// ...
/// await server.stop()                      // graceful: open requests finish, event streams end
/// ```
///
/// `switchboard serve` calls `run()` instead, which returns after SIGINT or SIGTERM when
/// ``ServerConfiguration/handlesSignals`` is on. The server reads the board on every request and never caches an
/// answer, so what the board serves — after a reload, or an override set by another process — the server serves.
/// Keep the board's polling on (`BoardOptions/pollInterval`, at most 250 ms) so that changes on disk arrive.
public final class FlagServer: Sendable {
    /// The board served.
    public let board: Board
    /// How the server listens.
    public let configuration: ServerConfiguration
    let logger: Logger
    let metrics: ServerMetrics
    let feed: ChangeFeed
    let access: AccessControl
    private let lifecycle = Locked(Lifecycle())

    private struct Lifecycle {
        var group: ServiceGroup?
        var runTask: Task<Void, any Error>?
        var port: Int?
        var failure: (any Error)?
        var stopRequested = false
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }

    /// Why ``start()`` or ``run(alongside:)`` returned without a listening server.
    public struct StartError: Error, CustomStringConvertible {
        /// What happened.
        public var description: String
        /// What to do about it, when there is something to say (a port in use: choose another).
        public var hint: String?

        /// The error, with a hint when there is one.
        public init(description: String, hint: String? = nil) {
            self.description = description
            self.hint = hint
        }

        /// The error for a listening socket the system refused, in words and with what to do: the address in use,
        /// a port that needs privileges, an address that is not this machine's. `nil` for any other error; asked
        /// only while the server has not listened yet, so a later failure (of a service run beside it) keeps its
        /// own words.
        static func listening(_ error: any Error, host: String, port: Int) -> StartError? {
            guard let error = error as? IOError else { return nil }
            switch error.errnoCode {
            case EADDRINUSE:
                return StartError(description: "\(host):\(port) is already in use",
                                  hint: "another process listens there: stop it, or choose another port (port 0 "
                                      + "takes a free one and the log says which)")
            case EACCES:
                return StartError(description: "permission denied for \(host):\(port)",
                                  hint: (1..<1024).contains(port)
                                      ? "ports below 1024 need privileges: choose a port from 1024 up" : nil)
            case EADDRNOTAVAIL:
                return StartError(description: "\(host) is not an address of this machine",
                                  hint: "listen on one of its addresses, such as 127.0.0.1, or on 0.0.0.0 for all")
            default:
                return nil
            }
        }
    }

    /// Creates a server for a board; nothing listens until `run()` or ``start()``.
    public init(board: Board, configuration: ServerConfiguration = ServerConfiguration(),
                logger: Logger = Logger(label: "switchboard.server")) {
        self.board = board
        self.configuration = configuration
        self.logger = logger
        metrics = ServerMetrics(factory: board.metricsFactory)
        access = AccessControl(adminToken: configuration.adminToken, readToken: configuration.readToken,
                               accessFile: configuration.accessFile, metrics: metrics, logger: logger,
                               trustedProxies: configuration.trustedProxies, makeIdentity: { [metrics] settings in
            OIDCSignIn(settings: settings,
                       provider: IdentityProvider(issuer: settings.issuer,
                                                  refreshInterval: configuration.identityKeysRefreshInterval),
                       metrics: metrics, logger: logger)
        })
        feed = ChangeFeed(board: board, access: access, metrics: metrics, logger: logger,
                          heartbeat: configuration.heartbeatInterval)
    }

    /// The port the server listens on — the one the system chose when configured with port 0 — or `nil` while it
    /// is not listening yet.
    public var port: Int? {
        lifecycle.withLock { $0.port }
    }

    /// The Hummingbird application: every route and middleware, for tests that drive the router directly. It does
    /// not run the change feed; `run()` does.
    public func makeApplication() -> some ApplicationProtocol {
        let responder = makeRouter().buildResponder()
        var configuration = ApplicationConfiguration(
            address: .hostname(self.configuration.host, port: self.configuration.port), serverName: nil)
        configuration.reuseAddress = true
        let connections = ConnectionPolicy(configuration: self.configuration, metrics: metrics)
        return Application(responder: responder, server: connections.server(router: responder),
                           configuration: configuration,
                           onServerRunning: { [self] channel in
            self.listening(on: channel.localAddress?.port ?? self.configuration.port, connections: connections)
        }, logger: logger)
    }

    func makeRouter() -> Router<ServerContext> {
        // HEAD wherever GET is (RFC 9110 §9.1: a health probe may use it), answered by the GET route without its
        // body; the event streams and the sign-in's redirects, which start something, refuse it with 405
        // (OFREPRoutes, ConsoleRoutes, ConsoleSignInRoutes).
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        // A span per request when a tracer is in effect (bootstrapped, or a `withTracer` scope around `start()`);
        // without one, requests skip the middleware altogether.
        if !(InstrumentationSystem.tracer is NoOpTracer) {
            router.add(middleware: TracingMiddleware())
        }
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        HealthRoutes(board: board, access: access, prometheus: configuration.prometheus).register(on: router)
        let ofrep = router.group("ofrep/v1")
        // Before the access check: a browser's preflight carries no credentials.
        if !configuration.corsOrigins.isEmpty {
            ofrep.add(middleware: CORSMiddleware(origins: configuration.corsOrigins))
        }
        // A server with no token at all skips the middleware on OFREP altogether: one hop less on the path every
        // evaluation takes.
        if access.isConfigured {
            ofrep.add(middleware: AccessMiddleware(access: access, scope: .ofrep))
        }
        OFREPRoutes(board: board, metrics: metrics, feed: feed, maxBodyBytes: configuration.maxBodyBytes,
                    traceValues: configuration.traceValues)
            .register(on: ofrep)
        let admin = router.group("v1").add(middleware: AccessMiddleware(access: access, scope: .admin))
        AdminRoutes(board: board, maxBodyBytes: configuration.maxBodyBytes, logger: logger).register(on: admin)
        UsageRoutes(board: board, usage: metrics.usage).register(on: admin)
        ConsoleRoutes(board: board, feed: feed, access: access, maxBodyBytes: configuration.maxBodyBytes,
                      usage: metrics.usage)
            .register(on: router)
        return router
    }

    /// Runs until ``stop()`` — or SIGINT/SIGTERM when ``ServerConfiguration/handlesSignals`` is on — then shuts
    /// down gracefully: event streams end first, then the HTTP server drains its requests.
    ///
    /// - Parameter services: services to run alongside, such as telemetry exporters; they start first and stop
    ///   last, so they see every request.
    /// - Throws: when the server cannot bind its address.
    public func run(alongside services: [any Service] = []) async throws {
        if let failure = access.startupFailure {
            let error = StartError(description: "the access file is invalid:\n\(failure.description)")
            finishWaiting(with: error)
            throw error
        }
        // Services shut down in reverse order: the feed first, which ends the event streams, so the HTTP server
        // is not left waiting on responses that never finish; the caller's services last.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services + [makeApplication(), feed, access],
            gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [],
            logger: logger))
        let stopAlreadyRequested = lifecycle.withLock { state in
            state.group = group
            return state.stopRequested
        }
        if stopAlreadyRequested { await group.triggerGracefulShutdown() }
        do {
            try await group.run()
            finishWaiting(with: StartError(description: "the server stopped before it was listening"))
        } catch {
            let listened = lifecycle.withLock { $0.port != nil }
            let failure = listened ? error
                : StartError.listening(error, host: configuration.host, port: configuration.port) ?? error
            finishWaiting(with: failure)
            throw failure
        }
        lifecycle.withLock { $0.port = nil }
        logger.info("stopped")
    }

    /// Starts `run()` in the background and returns once the server listens.
    ///
    /// - Returns: the port it listens on.
    /// - Throws: when the server cannot bind its address.
    @discardableResult
    public func start() async throws -> Int {
        let task = Task { try await self.run() }
        lifecycle.withLock { $0.runTask = task }
        return try await withCheckedThrowingContinuation { continuation in
            lifecycle.withLock { state in
                if let port = state.port {
                    continuation.resume(returning: port)
                } else if let failure = state.failure {
                    continuation.resume(throwing: failure)
                } else {
                    state.waiters.append(continuation)
                }
            }
        }
    }

    /// Shuts the server down gracefully and waits until it has stopped.
    public func stop() async {
        let (group, task) = lifecycle.withLock { state in
            state.stopRequested = true
            return (state.group, state.runTask)
        }
        await group?.triggerGracefulShutdown()
        _ = try? await task?.value
    }

    private func listening(on port: Int, connections: ConnectionPolicy) {
        let waiters = lifecycle.withLock { state in
            state.port = port
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
        let admin = access.path.map { "with the access file \($0)" }
            ?? (configuration.adminToken == nil ? "off (no admin token)" : "on")
        logger.info("""
            listening on http://\(configuration.host):\(port) — \(board.registry.count) definitions from \
            \(board.directory), revision \(board.revision); OFREP at /ofrep/v1, admin API at /v1 \(admin), \
            console at /; \(connections.summary)
            """)
        if configuration.isOpenBeyondThisMachine {
            logger.warning("""
                listening on \(configuration.host) with no token at all: the console and OFREP are open to anyone who \
                can reach this address; set SWITCHBOARD_READ_TOKEN (or --read-token-file) to close them
                """)
        }
    }

    private func finishWaiting(with error: any Error) {
        let waiters = lifecycle.withLock { state in
            if state.port == nil { state.failure = error }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }
}
