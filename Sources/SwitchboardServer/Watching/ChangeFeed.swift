import Foundation
import Locking
import Logging
import NIOCore
import ServiceLifecycle
import Switchboard

/// Turns the board's publications into event-stream frames, encoded once and shared by every stream.
///
/// It subscribes to the board's one change publisher, so a new revision — a reload, a runtime override set here or
/// by another process, an edit that changes only targeting — is announced to every event stream as soon as it
/// is in service, as one event however many keys changed. Failed reloads and store outages are the board's to
/// log and count (`BoardOptions/logger`); only detailed streams (the console's) hear of them, as status
/// events. The only timer is the heartbeat.
///
/// The feed keeps no queue per stream. It keeps the latest state — the OFREP frame of the last revision, the
/// console's frames of its last ``consoleBacklog`` changes, the last status frame, a heartbeat count — and each
/// ``Stream`` keeps a ``Cursor`` of what it has taken. A stream waiting for news holds only a wake-up — a
/// continuation, or a channel's call back to its event loop — and only while it waits; a stream whose client reads
/// slowly is held back by its own writes, and when it looks again it finds the latest state, never a backlog: an
/// OFREP stream gets the last revision's frame once (its refetch is idempotent), a console stream the changes it
/// missed, or a `{"revision": N, "refetch": true}` change when they are no longer kept.
final class ChangeFeed: Service, Sendable {
    /// Above this many changed keys, a console change event names none and its reader reads everything again.
    static let maxChangedKeys = 256

    /// How many console change frames the feed keeps for console streams that fall behind.
    static let consoleBacklog = 32

    /// A heartbeat: a comment line, in either kind of stream.
    static let heartbeatFrame = ByteBuffer(string: ": heartbeat\n\n")

    /// What a stream has taken from the feed (its frames may not all be written yet), as the feed's counts of
    /// changes, status events and heartbeats.
    struct Cursor: Sendable {
        /// The feed's count of changes when the stream last took frames.
        fileprivate var change: UInt64
        /// The feed's count of status events when the stream last took frames.
        fileprivate var status: UInt64
        /// The feed's count of heartbeats when the stream last took frames.
        fileprivate var heartbeat: UInt64
    }

    /// A console change frame and the number of the change it announces.
    private struct ConsoleChange {
        var change: UInt64
        var frame: ByteBuffer
    }

    /// What the feed shares with its streams, under one lock.
    private struct State {
        /// The wake-ups of OFREP streams waiting for news, by stream id.
        var waiters: [UInt64: Wake] = [:]
        /// The wake-ups of detailed (console) streams waiting for news, by stream id: kept apart so that a status
        /// event wakes them without looking at the OFREP streams.
        var detailedWaiters: [UInt64: Wake] = [:]
        /// How many streams are open.
        var streams = 0
        /// How many of the open streams are detailed (the console's).
        var detailedStreams = 0
        /// The last id given to a stream.
        var nextStream: UInt64 = 0
        /// The revision last announced.
        var revision: UInt64
        /// How many changes were announced; the revision the feed started at counts as the first.
        var changes: UInt64 = 1
        /// OFREP's frame of the last change.
        var refetchFrame: ByteBuffer
        /// The console's frame of the last change for a stream that missed changes no longer kept.
        var consoleRefetchFrame: ByteBuffer
        /// The console's frames of the last changes, oldest first; empty while no console stream was open.
        var consoleChanges: [ConsoleChange] = []
        /// How many status events were announced; only while a console stream is open.
        var statuses: UInt64 = 0
        /// The console's frame of the last status event; empty before the first.
        var statusFrame = ByteBuffer()
        /// How many heartbeats were sent.
        var heartbeats: UInt64 = 0
        /// Whether the feed has ended every stream and refuses new ones.
        var finished = false

        /// The frames a stream at `cursor` has yet to send, oldest first, and the cursor moved past them: the last
        /// change, then the last status (detailed streams), else a heartbeat.
        mutating func frames(after cursor: inout Cursor, detailed: Bool) -> [ByteBuffer] {
            var frames: [ByteBuffer] = []
            if changes > cursor.change {
                if !detailed {
                    frames.append(refetchFrame)
                } else if let first = consoleChanges.first, first.change <= cursor.change + 1 {
                    let sent = cursor.change
                    frames += consoleChanges.filter { $0.change > sent }.map(\.frame)
                } else {
                    frames.append(consoleRefetchFrame)
                }
                cursor.change = changes
            }
            if detailed && statuses > cursor.status {
                frames.append(statusFrame)
                cursor.status = statuses
            }
            if heartbeats > cursor.heartbeat {
                // Any frame shows the stream is alive.
                if frames.isEmpty { frames.append(ChangeFeed.heartbeatFrame) }
                cursor.heartbeat = heartbeats
            }
            return frames
        }

        /// Whether a stream at `cursor` has frames to take, or the feed has finished.
        func hasNews(after cursor: Cursor, detailed: Bool) -> Bool {
            finished || changes > cursor.change || heartbeats > cursor.heartbeat
                || (detailed && statuses > cursor.status)
        }

        /// Takes the waiters to wake: all of them, or only the detailed ones. The dictionaries keep their
        /// storage, so that thousands of streams waiting again do not grow them from empty at every change.
        mutating func takeWaiters(detailedOnly: Bool) -> [Wake] {
            var woken = Array(detailedWaiters.values)
            detailedWaiters.removeAll(keepingCapacity: true)
            if !detailedOnly {
                woken += waiters.values
                waiters.removeAll(keepingCapacity: true)
            }
            return woken
        }

        /// Takes the wake-up of stream `id` if it is waiting.
        mutating func takeWaiter(_ id: UInt64, detailed: Bool) -> Wake? {
            detailed ? detailedWaiters.removeValue(forKey: id) : waiters.removeValue(forKey: id)
        }
    }

    private let board: Board
    /// For the console's status events, which carry the health document (`/healthz`'s).
    private let access: AccessControl
    private let metrics: ServerMetrics
    private let logger: Logger
    private let heartbeat: Duration
    private let state: Locked<State>
    private let subscription = Locked<ChangeSubscription?>(nil)

    /// - Parameter access: for the console's status events, which carry the health document (`/healthz`'s).
    init(board: Board, access: AccessControl, metrics: ServerMetrics, logger: Logger, heartbeat: Duration) {
        self.board = board
        self.access = access
        self.metrics = metrics
        self.logger = logger
        self.heartbeat = heartbeat
        let revision = board.revision
        let now = Int(Date().timeIntervalSince1970)
        state = Locked(State(revision: revision, refetchFrame: Self.refetchFrame(revision, lastModified: now),
                             consoleRefetchFrame: Self.consoleRefetchFrame(revision)))
        let subscription = board.subscribe { [weak self] event in self?.handle(event) }
        self.subscription.withLock { $0 = subscription }
    }

    /// How many event streams are open.
    var subscriberCount: Int { state.withLock { $0.streams } }

    /// How many event streams are waiting for news (for tests: a stream counted here has stored its wake-up, so
    /// news announced from now on must wake it).
    var waitingCount: Int { state.withLock { $0.waiters.count + $0.detailedWaiters.count } }

    /// A stream's starting point: from now on, or — for a client that reconnects with a `Last-Event-ID` other than
    /// the current revision — one change back, so that its first frame is the change it missed.
    func cursor(catchingUpFrom lastEventID: UInt64? = nil) -> Cursor {
        state.withLock { state in
            let behind = lastEventID.map { $0 != state.revision } ?? false
            return Cursor(change: state.changes - (behind ? 1 : 0), status: state.statuses,
                          heartbeat: state.heartbeats)
        }
    }

    /// What a waiting stream is called with when news comes, once; it must not block (it runs where the news is
    /// announced) and must not call back into the feed before returning.
    typealias Wake = @Sendable () -> Void

    /// Opens an event stream at `cursor`: it counts as open until it is released.
    ///
    /// - Parameter detailed: whether the stream gets the console's change and status events instead of OFREP's
    ///   refetch events.
    func stream(from cursor: Cursor, detailed: Bool = false) -> Stream {
        Stream(feed: self, cursor: cursor, detailed: detailed)
    }

    /// One event stream's place in the feed, counted open from its creation until it is released.
    ///
    /// Its owner — one task (``next()``), or one channel on its event loop (``take()`` and ``wait(_:)``) — is the
    /// only caller, one call at a time; it is `Sendable` so that it can be handed from the task that opened it to
    /// the channel that serves it.
    final class Stream: @unchecked Sendable {
        /// The feed the frames come from.
        private let feed: ChangeFeed
        /// Whether the stream is the console's (changes as rows, and status events) rather than OFREP's.
        private let detailed: Bool
        /// `nil` when the feed had finished before the stream opened.
        private let id: UInt64?
        /// What the stream has taken from the feed so far.
        private var cursor: Cursor

        fileprivate init(feed: ChangeFeed, cursor: Cursor, detailed: Bool) {
            self.feed = feed
            self.cursor = cursor
            self.detailed = detailed
            id = feed.open(detailed: detailed)
        }

        deinit {
            if let id { feed.close(id, detailed: detailed) }
        }

        /// The frames past the stream's cursor, oldest first, and the cursor moved past them: empty when there is no
        /// news, `nil` once the feed has finished (after the frames it had).
        func take() -> [ByteBuffer]? {
            guard id != nil else { return nil }
            let (frames, finished) = feed.state.withLock { state in
                (state.frames(after: &cursor, detailed: detailed), state.finished)
            }
            return frames.isEmpty && finished ? nil : frames
        }

        /// Stores `wake`, to be called once when news comes; `false`, storing nothing, when news came since the
        /// last ``take()`` (take again) or the calling task is cancelled.
        func wait(_ wake: @escaping Wake) -> Bool {
            guard let id else { return false }
            let waitingAt = cursor
            return feed.state.withLock { state in
                guard !state.hasNews(after: waitingAt, detailed: detailed) && !Task.isCancelled else { return false }
                if detailed {
                    state.detailedWaiters[id] = wake
                } else {
                    state.waiters[id] = wake
                }
                return true
            }
        }

        /// Drops the stored wake-up without calling it, and returns it.
        @discardableResult
        func stopWaiting() -> Wake? {
            guard let id else { return nil }
            return feed.state.withLock { $0.takeWaiter(id, detailed: detailed) }
        }

        /// The next frames, waiting for some if there are none; `nil` once the feed has finished or the task is
        /// cancelled.
        ///
        /// The frames are taken without suspending: a stream woken by news returns them at once. (Taking them
        /// inside the continuation's body and resuming it straight away cost each delivery a second trip through
        /// the executor, behind every other woken stream: at 10,000 streams it doubled the time a change took.)
        func next() async -> [ByteBuffer]? {
            while true {
                guard let frames = take() else { return nil }
                if !frames.isEmpty { return frames }
                if Task.isCancelled { return nil }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        if !wait({ continuation.resume() }) { continuation.resume() }
                    }
                } onCancel: {
                    stopWaiting()?()
                }
            }
        }
    }

    /// Counts a stream in, unless the feed has finished; returns its id.
    private func open(detailed: Bool) -> UInt64? {
        // The gauge is set under the lock, so that two streams opening or closing at once record in order.
        state.withLock { state in
            guard !state.finished else { return nil }
            state.nextStream += 1
            state.streams += 1
            if detailed { state.detailedStreams += 1 }
            metrics.recordEventStreams(state.streams)
            return state.nextStream
        }
    }

    /// Counts a stream out.
    private func close(_ id: UInt64, detailed: Bool) {
        let waiter = state.withLock { state in
            state.streams -= 1
            if detailed { state.detailedStreams -= 1 }
            metrics.recordEventStreams(state.streams)
            return state.takeWaiter(id, detailed: detailed)
        }
        // None is left: the stream's owner holds it while it waits. Were one ever left, its task must not hang.
        waiter?()
    }

    /// Sends heartbeats until graceful shutdown, then ends every stream so that open event-stream responses
    /// finish and the HTTP server can drain.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.heartbeat)
                if !Task.isCancelled { self.announce { $0.heartbeats += 1 } }
            }
        }
        finish()
    }

    /// Announces a publication, and to detailed streams a status change; each frame is encoded here, once.
    private func handle(_ event: BoardEvent) {
        let publication: Publication
        switch event {
        case .published(let published): publication = published
        case .status:
            // Only a console hears of it, and a console writes the current status when it opens: with none open,
            // there is nothing to encode or announce.
            guard state.withLock({ $0.detailedStreams }) > 0 else { return }
            let frame = ConsoleRoutes.statusFrame(board: board, access: access)
            announce(detailedOnly: true) { state in
                state.statuses += 1
                state.statusFrame = frame
            }
            return
        }
        let revision = publication.new.revision
        let now = Int(Date().timeIntervalSince1970)
        logger.info("serving revision \(revision)", metadata: ["flags": "\(publication.new.registry.count)",
                                                              "changed": "\(publication.changes.count)"])
        let refetch = Self.refetchFrame(revision, lastModified: now)
        let consoleRefetch = Self.consoleRefetchFrame(revision)
        // The rows only when a console is watching: they read the board for each changed key.
        var console: ByteBuffer?
        if state.withLock({ $0.detailedStreams }) > 0 {
            console = publication.changes.count > Self.maxChangedKeys ? consoleRefetch
                : ByteBuffer(string: ConsoleRoutes.frame("change", ConsoleRoutes.changeDocument(
                    revision, keys: publication.changes.map(\.key), snapshot: publication.new, board: board)))
        }
        announce { state in
            state.revision = revision
            state.changes += 1
            state.refetchFrame = refetch
            state.consoleRefetchFrame = consoleRefetch
            if let console {
                state.consoleChanges.append(ConsoleChange(change: state.changes, frame: console))
                if state.consoleChanges.count > Self.consoleBacklog { state.consoleChanges.removeFirst() }
            } else {
                // A console stream that opens now finds no rows for this change, and reads everything again.
                state.consoleChanges.removeAll()
            }
        }
    }

    /// Changes the state and wakes the streams waiting for it: all of them, or only the detailed ones.
    private func announce(detailedOnly: Bool = false, _ change: (inout State) -> Void) {
        let woken = state.withLock { state in
            change(&state)
            return state.takeWaiters(detailedOnly: detailedOnly)
        }
        // Resume outside the lock: a resumed stream takes it to read its frames.
        for wake in woken { wake() }
    }

    /// Ends every stream once it has sent what it has not yet, and refuses new ones.
    func finish() {
        subscription.withLock { $0 = nil }
        announce { $0.finished = true }
    }

    /// OFREP's frame of a revision.
    private static func refetchFrame(_ revision: UInt64, lastModified: Int) -> ByteBuffer {
        ByteBuffer(string: OFREPRoutes.frame(revision: revision, lastModified: lastModified))
    }

    /// The console's change frame that asks the page to read everything again.
    private static func consoleRefetchFrame(_ revision: UInt64) -> ByteBuffer {
        ByteBuffer(string: ConsoleRoutes.frame("change", ConsoleRoutes.refetchDocument(revision)))
    }
}
