import Foundation
import Logging
import ServiceLifecycle
import Switchboard
import Synchronization

/// Watches the board for what the server must react to, and tells the event streams.
///
/// A new revision — a reload, a runtime override set here or by another process — is announced to every
/// subscriber as one event, however many keys changed. A reload that failed is logged with its diagnostics once,
/// and its recovery once. The feed wakes on the board's change stream, so a change made through this server is
/// announced at once, and on a timer, which catches what the stream does not report (an edit that changes only
/// targeting, a failed reload) within ``ServerConfiguration/watchInterval``.
final class ChangeFeed: Service, Sendable {
    /// What a subscriber receives.
    enum Event: Sendable, Equatable {
        /// The flags changed: refetch. The revision is the event's id; the time is Unix seconds.
        case refetch(revision: UInt64, lastModified: Int)
        /// Nothing happened for a while.
        case heartbeat
    }

    private struct State {
        var subscribers: [UInt64: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var revision: UInt64
        var lastModified: Int
        var reloadErrors: [Diagnostic] = []
        var storeProblem: String?
        var finished = false
    }

    private let board: Board
    private let metrics: ServerMetrics
    private let logger: Logger
    private let interval: Duration
    private let heartbeat: Duration
    private let state: Mutex<State>

    init(board: Board, metrics: ServerMetrics, logger: Logger, interval: Duration, heartbeat: Duration) {
        self.board = board
        self.metrics = metrics
        self.logger = logger
        self.interval = interval
        self.heartbeat = heartbeat
        state = Mutex(State(revision: board.revision, lastModified: Int(Date().timeIntervalSince1970)))
    }

    /// The revision last announced.
    var revision: UInt64 { state.withLock { $0.revision } }

    /// The last change, as an event, for a client that reconnects having missed it.
    var latest: Event { state.withLock { .refetch(revision: $0.revision, lastModified: $0.lastModified) } }

    /// How many event streams are open.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A stream of events from now on; it ends when the client goes away or the server shuts down.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Watches until graceful shutdown, then ends every stream so that open event-stream responses finish and the
    /// HTTP server can drain.
    func run() async throws {
        await cancelWhenGracefulShutdown { await self.watch() }
        finish()
    }

    private func watch() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in self.board.changes { self.check() }
            }
            group.addTask {
                let clock = ContinuousClock()
                var lastHeartbeat = clock.now
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.interval)
                    self.check()
                    if clock.now - lastHeartbeat >= self.heartbeat {
                        lastHeartbeat = clock.now
                        self.broadcast(.heartbeat)
                    }
                }
            }
        }
    }

    /// Compares the board with what was last seen: announces a new revision, logs reload errors as they appear
    /// and go. Cheap enough to call on every tick.
    func check() {
        let revision = board.revision
        let errors = board.lastReloadErrors
        let storeProblem = board.storeProblem?.description
        let now = Int(Date().timeIntervalSince1970)
        let (newRevision, newErrors, newStoreProblem) = state.withLock { state in
            let newRevision = state.revision != revision
            let newErrors = state.reloadErrors != errors
            let newStoreProblem = state.storeProblem != storeProblem
            if newRevision {
                state.revision = revision
                state.lastModified = now
            }
            state.reloadErrors = errors
            state.storeProblem = storeProblem
            return (newRevision, newErrors, newStoreProblem)
        }
        if newErrors { report(errors, revision: revision) }
        if newStoreProblem {
            if let storeProblem {
                logger.error("the runtime override store cannot be read; the last good overrides stay in effect",
                             metadata: ["problem": "\(storeProblem)"])
            } else {
                logger.info("the runtime override store reads again")
            }
        }
        if newRevision {
            metrics.reloads.increment()
            logger.info("serving revision \(revision)", metadata: ["flags": "\(board.registry.count)"])
            broadcast(.refetch(revision: revision, lastModified: now))
        }
    }

    private func report(_ errors: [Diagnostic], revision: UInt64) {
        guard !errors.isEmpty else {
            logger.info("definitions reloaded; the earlier errors are fixed")
            return
        }
        metrics.reloadErrors.increment()
        logger.error("""
            definitions changed but do not validate: \(errors.count) error\(errors.count == 1 ? "" : "s"); \
            still serving revision \(revision), the last good definitions
            """)
        for diagnostic in errors {
            logger.error("\(diagnostic.description)")
        }
    }

    private func broadcast(_ event: Event) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        // Yield outside the lock: a subscriber's termination handler takes it.
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// Ends every stream, and refuses new ones.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
