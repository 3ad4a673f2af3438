import Foundation
import Logging
import ServiceLifecycle
import Switchboard
import Synchronization

/// Turns the board's events into what the server does about them: event-stream notices, logs and metrics.
///
/// It subscribes to the board's one change publisher, so a new revision — a reload, a runtime override set here or
/// by another process, an edit that changes only targeting — is announced to every event stream as soon as it
/// is in service, as one event however many keys changed. A reload that failed is logged with its diagnostics
/// once, and its recovery once; so is a store that cannot be read. The only timer is the heartbeat.
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
        var status = BoardStatus()
        var finished = false
    }

    private let board: Board
    private let metrics: ServerMetrics
    private let logger: Logger
    private let heartbeat: Duration
    private let state: Mutex<State>
    private let subscription = Mutex<Board.Subscription?>(nil)

    init(board: Board, metrics: ServerMetrics, logger: Logger, heartbeat: Duration) {
        self.board = board
        self.metrics = metrics
        self.logger = logger
        self.heartbeat = heartbeat
        state = Mutex(State(revision: board.revision, lastModified: Int(Date().timeIntervalSince1970)))
        let subscription = board.subscribe { [weak self] event in self?.handle(event) }
        self.subscription.withLock { $0 = subscription }
        handle(.status(board.status))
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

    /// Sends heartbeats until graceful shutdown, then ends every stream so that open event-stream responses
    /// finish and the HTTP server can drain.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.heartbeat)
                if !Task.isCancelled { self.broadcast(.heartbeat) }
            }
        }
        finish()
    }

    /// Reacts to one board event: announces a publication, logs a status change.
    private func handle(_ event: BoardEvent) {
        switch event {
        case .published(let publication):
            let revision = publication.new.revision
            let now = Int(Date().timeIntervalSince1970)
            state.withLock { state in
                state.revision = revision
                state.lastModified = now
            }
            metrics.reloads.increment()
            logger.info("serving revision \(revision)", metadata: ["flags": "\(publication.new.registry.count)",
                                                                  "changed": "\(publication.changes.count)"])
            broadcast(.refetch(revision: revision, lastModified: now))
        case .status(let status):
            let old = state.withLock { state in
                defer { state.status = status }
                return state.status
            }
            if old.reloadErrors != status.reloadErrors { report(status.reloadErrors, revision: board.revision) }
            if old.storeProblem != status.storeProblem {
                if let problem = status.storeProblem {
                    logger.error("the runtime override store cannot be read; the last good overrides stay in effect",
                                 metadata: ["problem": "\(problem)"])
                } else {
                    logger.info("the runtime override store reads again")
                }
            }
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
        subscription.withLock { $0 = nil }
        let subscribers = state.withLock { state in
            state.finished = true
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
