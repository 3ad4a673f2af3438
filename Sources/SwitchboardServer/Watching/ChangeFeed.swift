import Foundation
import Locking
import Logging
import ServiceLifecycle
import Switchboard

/// Turns the board's publications into event-stream notices.
///
/// It subscribes to the board's one change publisher, so a new revision — a reload, a runtime override set here or
/// by another process, an edit that changes only targeting — is announced to every event stream as soon as it
/// is in service, as one event however many keys changed. Failed reloads and store outages are the board's to
/// log and count (`BoardOptions/logger`); only detailed streams (the console's) hear of them, as status
/// events. The only timer is the heartbeat.
final class ChangeFeed: Service, Sendable {
    /// What a subscriber receives.
    enum Event: Sendable {
        /// The flags changed: refetch. The revision is the event's id; the time is Unix seconds.
        case refetch(revision: UInt64, lastModified: Int)
        /// Nothing happened for a while.
        case heartbeat
        /// The flags changed (detailed streams only, instead of ``refetch(revision:lastModified:)``): the keys whose
        /// resolution changed, or `nil` when so many did that reading everything again is simpler, and the snapshot
        /// the change published, which the rows are read from.
        case changed(revision: UInt64, keys: [String]?, snapshot: Snapshot)
        /// The board's health changed (detailed streams only): a reload failed or recovered, the store went away or
        /// came back.
        case status(BoardStatus)
    }

    /// Above this many changed keys, a detailed event names none and its reader reads everything again.
    static let maxChangedKeys = 256

    private struct Subscriber {
        var continuation: AsyncStream<Event>.Continuation
        var detailed: Bool
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextSubscriber: UInt64 = 0
        var revision: UInt64
        var lastModified: Int
        var finished = false
    }

    private let board: Board
    private let metrics: ServerMetrics
    private let logger: Logger
    private let heartbeat: Duration
    private let state: Locked<State>
    private let subscription = Locked<ChangeSubscription?>(nil)

    init(board: Board, metrics: ServerMetrics, logger: Logger, heartbeat: Duration) {
        self.board = board
        self.metrics = metrics
        self.logger = logger
        self.heartbeat = heartbeat
        state = Locked(State(revision: board.revision, lastModified: Int(Date().timeIntervalSince1970)))
        let subscription = board.subscribe { [weak self] event in self?.handle(event) }
        self.subscription.withLock { $0 = subscription }
    }

    /// The revision last announced.
    var revision: UInt64 { state.withLock { $0.revision } }

    /// The last change, as an event, for a client that reconnects having missed it.
    var latest: Event { state.withLock { .refetch(revision: $0.revision, lastModified: $0.lastModified) } }

    /// How many event streams are open.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A stream of events from now on; it ends when the client goes away or the server shuts down.
    ///
    /// - Parameter detailed: whether the stream gets ``Event/changed(revision:keys:)`` and ``Event/status(_:)``
    ///   (the console's) instead of ``Event/refetch(revision:lastModified:)`` (OFREP's).
    func subscribe(detailed: Bool = false) -> AsyncStream<Event> {
        // A detailed stream keeps more: each event names keys, and a dropped one would leave a row out of date.
        let buffer = detailed ? 256 : 16
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        // The gauge is set under the lock, so that two streams opening or closing at once record in order.
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = Subscriber(continuation: continuation, detailed: detailed)
            metrics.recordEventStreams(state.subscribers.count)
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                state.subscribers.removeValue(forKey: id)
                metrics.recordEventStreams(state.subscribers.count)
            }
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

    /// Announces a publication, and to detailed streams a status change.
    private func handle(_ event: BoardEvent) {
        let publication: Publication
        switch event {
        case .published(let published): publication = published
        case .status(let status):
            broadcast(.status(status), toDetailed: true)
            return
        }
        let revision = publication.new.revision
        let now = Int(Date().timeIntervalSince1970)
        state.withLock { state in
            state.revision = revision
            state.lastModified = now
        }
        logger.info("serving revision \(revision)", metadata: ["flags": "\(publication.new.registry.count)",
                                                              "changed": "\(publication.changes.count)"])
        broadcast(.refetch(revision: revision, lastModified: now), toDetailed: false)
        let keys = publication.changes.count > Self.maxChangedKeys ? nil : publication.changes.map(\.key)
        broadcast(.changed(revision: revision, keys: keys, snapshot: publication.new), toDetailed: true)
    }

    /// Sends an event to every stream, or only to the detailed ones or only to the others.
    private func broadcast(_ event: Event, toDetailed detailed: Bool? = nil) {
        let subscribers = state.withLock { state in
            state.subscribers.values.filter { detailed == nil || $0.detailed == detailed }.map(\.continuation)
        }
        // Yield outside the lock: a subscriber's termination handler takes it.
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// Ends every stream, and refuses new ones.
    func finish() {
        subscription.withLock { $0 = nil }
        let subscribers = state.withLock { state in
            state.finished = true
            return state.subscribers.values.map(\.continuation)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
