import Foundation
import Locking
import Logging
import Switchboard

/// The moving parts behind a ``RemoteBoard``: the snapshot, the fetch loop, the event stream and the cache.
/// One installed snapshot and what changed from the one before.
struct RemotePublication: Sendable {
    let snapshot: RemoteSnapshot
    let changes: [ValueChange]
}

final class RemoteCore: Sendable {
    let configuration: RemoteConfiguration
    let transport: any RemoteTransport
    let logger: Logger
    let cell = SnapshotCell<RemoteSnapshot>(.empty)
    /// Every installed snapshot and the keys whose value changed, to the board's streams and handlers.
    let publisher = ChangePublisher<RemotePublication> { $0.changes }
    let cache: RemoteCache?
    /// Signalled by change events, context switches and ``RemoteBoard/refresh()``.
    let refetch = Wakeup()
    /// Signalled when the app becomes active or inactive.
    let activity = Wakeup()

    private struct State {
        var context: EvaluationContext
        /// Grows with every context switch; an answer fetched for an older one is dropped.
        var generation: UInt64 = 0
        var etag: String?
        var status: RemoteBoard.Status = .starting
        var lastError: RemoteError?
        /// An answer is in service (the server's or the cache's) or the first fetch has ended; never reset.
        var settled = false
        var active = true
        var lastEventID: String?
        var serverInactivity: Int?
    }

    private let state: Locked<State>

    /// Overrides that live on this device only; they win over the server's values.
    let local: LocalOverrides
    /// Serializes installs: the fetch loop's answers and the app's local overrides.
    private let installing = Locked(())
    /// The wake-up for the next change a server announced for the flags in service, and its moment.
    private let announced = Locked<(time: Double, subscription: ChangeSubscription)?>(nil)

    init(configuration: RemoteConfiguration, transport: any RemoteTransport, logger: Logger) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        cache = configuration.cacheDirectory.map(RemoteCache.init(directory:))
        state = Locked(State(context: configuration.context))
        var problem: String?
        local = LocalOverrides(directory: configuration.cacheDirectory) { problem = $0 }
        if let problem { report(.corruptCache(problem)) }
    }

    var context: EvaluationContext { state.withLock { $0.context } }
    var status: RemoteBoard.Status { state.withLock { $0.status } }
    var lastError: RemoteError? { state.withLock { $0.lastError } }
    var settled: Bool { state.withLock { $0.settled } }

    // MARK: - Snapshot and changes

    func subscribe() -> AsyncStream<ValueChange> {
        publisher.stream(\.changes)
    }

    /// Registers a handler for every snapshot installed from now on, with the keys whose value changed.
    func subscribeToSnapshots(
        _ handler: @escaping @Sendable (RemoteSnapshot, [String]) -> Void
    ) -> ChangeSubscription {
        publisher.subscribe { publication in handler(publication.snapshot, publication.changes.map(\.key)) }
    }

    func finish() {
        state.withLock { $0.status = .stopped }
        publisher.finish()
    }

    /// Publishes new flags (`nil`: the ones in service, read under the same lock, so that an answer installed
    /// meanwhile is not replaced by an older one), with the device's local overrides over them, and tells
    /// subscribers which values changed.
    private func install(_ served: [String: RemoteFlag]?, source: RemoteSnapshot.Source?) {
        installing.withLock { _ in
            let old = cell.snapshot
            // Changes the server announced whose moment has come apply now, even from the cache, offline.
            let now = configuration.clock.now()
            let due = AnnouncedChange.applyingDue(served ?? old.served, now: now)
            let new = RemoteSnapshot(served: due, local: local.live(at: now), source: source ?? old.source,
                                     revision: old.revision + 1)
            cell.replace(with: new)
            let flags = new.flags
            var changes: [ValueChange] = []
            for (key, flag) in flags where old.flags[key]?.value != flag.value {
                changes.append(ValueChange(of: key, from: old.flags[key]?.value, to: new.resolution(of: key),
                                           revision: new.revision))
            }
            for (key, flag) in old.flags where flags[key] == nil {
                changes.append(ValueChange(of: key, from: flag.value, to: nil, revision: new.revision))
            }
            guard !changes.isEmpty else { return }
            changes.sort { $0.key < $1.key }
            publisher.enqueue(RemotePublication(snapshot: new, changes: changes))
        }
        // Outside the lock: a handler may set a local override, which installs again.
        publisher.deliver()
        armAnnouncedChange()
    }

    /// Sets the one wake-up for the earliest change to come by itself: one the server announced for the flags in
    /// service, or the expiry of a device-local override. At that moment the flags are installed again.
    private func armAnnouncedChange() {
        let announcedNext = AnnouncedChange.next(in: cell.snapshot.served)
        let expiry = local.nextExpiry(after: configuration.clock.now())
        let next = [announcedNext, expiry].compactMap { $0 }.min()
        guard announced.withLock({ $0?.time }) != next else { return }
        let subscription = next.map { time in
            configuration.clock.wake(at: time) { [weak self] in self?.install(nil, source: nil) }
        }
        let replaced = announced.withLock { current -> ChangeSubscription? in
            let old = current?.subscription
            if let next, let subscription { current = (next, subscription) } else { current = nil }
            return old
        }
        replaced?.cancel()
    }

    /// Sets or removes device-local overrides (`nil` removes), persisted before they are served; refuses a key the
    /// server's answer lacks, a value of another type than the server's, and one nested deeper than any value may
    /// (the file would not load again, and every override in it would be lost).
    func setLocal(_ changes: [String: Value?], actor: String, expiresAt: String? = nil) throws(LocalOverrideError) {
        let served = cell.snapshot.served
        var checked: [String: Value?] = [:]
        for (key, value) in changes {
            guard let value else {
                checked[key] = Value?.none
                continue
            }
            guard let flag = served[key] else {
                throw .unknownKey(key, suggestions: Suggestions.near(key, in: served.keys))
            }
            var accepted = value
            if let servedType = flag.value?.type {
                accepted = servedType.widening(value)
                if let problem = Definition.typeProblem(accepted, expected: servedType) {
                    throw .invalidValue(key: key, problem)
                }
            }
            if let problem = Definition.nestingProblem(accepted) { throw .invalidValue(key: key, problem) }
            checked[key] = accepted
        }
        do {
            try local.apply(checked, actor: actor, expiresAt: expiresAt)
        } catch {
            throw .notWritten("\(error)")
        }
        install(nil, source: nil)
    }

    /// Removes every device-local override.
    func resetAllLocal() throws(LocalOverrideError) {
        do {
            try local.removeAll()
        } catch {
            throw .notWritten("\(error)")
        }
        install(nil, source: nil)
    }

    private func report(_ error: RemoteError, level: Logger.Level = .warning) {
        state.withLock { $0.lastError = error }
        logger.log(level: level, "\(error)", metadata: ["ofrep.base_url": "\(configuration.baseURL)"])
    }

    // MARK: - Cache

    /// Serves the cached answer for a context, when there is one.
    func loadCache(for context: EvaluationContext) {
        guard let cache else { return }
        do {
            guard let entry = try cache.load(baseURL: configuration.baseURL, context: context) else { return }
            let installed = state.withLock { state -> Bool in
                guard state.context == context, state.status != .live else { return false }
                state.status = .cached
                state.etag = entry.etag
                // An answer is in service: nobody waiting for the board has a reason to wait for the network.
                state.settled = true
                return true
            }
            guard installed else { return }
            streams.withLock { $0 = entry.evaluation.eventStreams }
            install(entry.evaluation.flags, source: .cache)
        } catch {
            report(.corruptCache(error.description), level: .error)
        }
    }

    // MARK: - Control

    func setContext(_ context: EvaluationContext) {
        let changed = state.withLock { state -> Bool in
            guard state.context != context else { return false }
            state.context = context
            state.generation += 1
            state.etag = nil
            if case .live = state.status { state.status = .starting }
            return true
        }
        guard changed else { return }
        loadCache(for: context)
        refetch.signal()
    }

    func setActive(_ active: Bool) {
        state.withLock { $0.active = active }
        activity.signal()
    }

    // MARK: - The loop

    enum FetchOutcome: Sendable, Equatable {
        case updated, notModified, superseded, failed, fatal, cancelled
        case retryAfter(Duration)
    }

    enum StreamEnd: Sendable, Equatable {
        case dropped, fatal, inactive, cancelled
        /// Nothing arrived for ``RemoteConfiguration/streamSilenceTimeout``: closed, and handled as a drop.
        case silent
    }

    func run() async {
        var attempt = 0
        var unconditional = false
        while !Task.isCancelled {
            let outcome = await fetch(unconditional: unconditional)
            unconditional = false
            state.withLock { $0.settled = true }
            switch outcome {
            case .cancelled: return
            case .fatal:
                // Stopped until the context changes or the app asks for a refresh.
                await refetch.wait()
                continue
            case .retryAfter, .failed:
                await pause(after: outcome, attempt: &attempt)
                continue
            case .superseded:
                continue
            case .updated, .notModified:
                attempt = 0
            }
            let streams = cell.snapshot.source == .server ? currentStreams() : []
            if let url = streams.first {
                switch await follow(url) {
                case .cancelled: return
                case .fatal:
                    await refetch.wait()
                case .inactive:
                    while !Task.isCancelled, !state.withLock({ $0.active }) { await activity.wait() }
                    unconditional = true
                case .dropped, .silent:
                    attempt += 1
                    try? await Task.sleep(for: configuration.backoff.delay(attempt: attempt))
                    unconditional = true
                }
            } else if let interval = configuration.pollInterval {
                _ = await refetch.wait(for: interval)
            } else {
                await refetch.wait()
            }
        }
    }

    private let streams = Locked<[String]>([])

    private func currentStreams() -> [String] { streams.withLock { $0 } }

    /// One bulk fetch for the current context.
    func fetch(unconditional: Bool) async -> FetchOutcome {
        let (context, generation, etag) = state.withLock { ($0.context, $0.generation, $0.etag) }
        var headers = configuration.requestHeaders
        headers["Content-Type"] = "application/json"
        headers["Accept"] = "application/json"
        if !unconditional, let etag, cell.snapshot.source != .none { headers["If-None-Match"] = etag }
        let request = RemoteRequest(
            method: "POST", url: configuration.baseURL + "/ofrep/v1/evaluate/flags", headers: headers,
            body: Array(CanonicalJSON.requestBody(context).utf8), timeout: configuration.timeout)
        let response: RemoteResponse
        do {
            response = try await transport.send(request)
        } catch {
            if Task.isCancelled { return .cancelled }
            report(.unreachable(String(describing: error)))
            return .failed
        }
        guard state.withLock({ $0.generation == generation }) else { return .superseded }
        switch response.status {
        case 200:
            let evaluation: BulkEvaluation
            do {
                evaluation = try BulkEvaluation.decode(response.body, baseURL: configuration.baseURL)
            } catch {
                report(.invalidBody(error.description), level: .error)
                return .failed
            }
            // The cache first: whoever sees the board live finds the answer on disk too.
            if let cache, state.withLock({ $0.generation == generation }) {
                do {
                    try cache.store(baseURL: configuration.baseURL, context: context, body: response.body,
                                    etag: response.headers["etag"])
                } catch {
                    logger.warning("could not write the cache in \(cache.directory): \(error)")
                }
            }
            let current = state.withLock { state -> Bool in
                guard state.generation == generation else { return false }
                state.etag = response.headers["etag"]
                state.status = .live
                state.lastError = nil
                state.serverInactivity = evaluation.inactivityDelaySeconds
                return true
            }
            guard current else { return .superseded }
            streams.withLock { $0 = evaluation.eventStreams }
            install(evaluation.flags, source: .server)
            return .updated
        case 304:
            state.withLock { state in
                state.status = .live
                state.lastError = nil
            }
            installing.withLock { _ in
                let snapshot = cell.snapshot
                if snapshot.source == .cache {
                    // The cached answer is the server's current one: serve it as live.
                    cell.replace(with: RemoteSnapshot(flags: snapshot.flags, served: snapshot.served, source: .server,
                                                      revision: snapshot.revision))
                }
            }
            return .notModified
        case 401, 403:
            state.withLock { $0.status = .unauthorized(status: response.status) }
            report(.unauthorized(response.status), level: .error)
            return .fatal
        case 429:
            let delay = Self.retryAfter(response.headers["retry-after"])
                ?? configuration.backoff.delay(attempt: 3)
            report(.rateLimited(retryAfter: delay))
            return .retryAfter(delay)
        default:
            report(.httpStatus(response.status))
            return .failed
        }
    }

    /// `Retry-After` in seconds; an HTTP date or garbage gives `nil`.
    static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }

    /// Follows one event stream until it drops, the credentials are refused, the app stays inactive too long, it
    /// stays silent longer than ``RemoteConfiguration/streamSilenceTimeout``, or the task is cancelled. Every
    /// `refetchEvaluation` refetches; events that arrive during a fetch make one more.
    func follow(_ url: String) async -> StreamEnd {
        var headers = configuration.requestHeaders
        headers["Accept"] = "text/event-stream"
        if let id = state.withLock({ $0.lastEventID }) { headers["Last-Event-ID"] = id }
        let response: RemoteStreamResponse
        do {
            response = try await transport.stream(RemoteRequest(method: "GET", url: url, headers: headers,
                                                                timeout: configuration.timeout))
        } catch {
            if Task.isCancelled { return .cancelled }
            report(.unreachable(String(describing: error)))
            return .dropped
        }
        switch response.status {
        case 200: break
        case 401, 403:
            state.withLock { $0.status = .unauthorized(status: response.status) }
            report(.unauthorized(response.status), level: .error)
            return .fatal
        default:
            report(.httpStatus(response.status))
            return .dropped
        }
        logger.debug("following the event stream")
        // A change between the last fetch and the connection has no event on this stream: look once now.
        refetch.signal()
        let lastHeard = Locked(ContinuousClock.now)
        return await withTaskGroup(of: StreamEnd.self) { group in
            group.addTask {
                var parser = ServerSentEventParser()
                do {
                    for try await chunk in response.body {
                        lastHeard.withLock { $0 = .now }
                        for event in parser.feed(chunk) where Self.isRefetch(event) {
                            self.refetch.signal()
                        }
                        if let id = parser.lastEventID { self.state.withLock { $0.lastEventID = id } }
                    }
                } catch {
                    if !Task.isCancelled { self.report(.unreachable("event stream: \(error)")) }
                }
                return Task.isCancelled ? .cancelled : .dropped
            }
            group.addTask {
                while !Task.isCancelled {
                    await self.refetch.wait()
                    if Task.isCancelled { break }
                    if await self.fetchUntilAnswered() == .fatal { return .fatal }
                }
                return .cancelled
            }
            group.addTask { await self.watchInactivity() }
            if let limit = configuration.streamSilenceTimeout {
                group.addTask { await self.watchSilence(since: lastHeard, limit: limit) }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
    }

    /// A refetch asked for by the stream, repeated until the server answers: the event that asked for it is not
    /// sent again, so a fetch that failed and was dropped would lose the change until the next one. Waits between
    /// tries as the main loop does (``pause(after:attempt:)``).
    private func fetchUntilAnswered() async -> FetchOutcome {
        var attempt = 0
        while true {
            let outcome = await fetch(unconditional: false)
            switch outcome {
            case .failed, .retryAfter:
                await pause(after: outcome, attempt: &attempt)
                if Task.isCancelled { return .cancelled }
            case .updated, .notModified, .superseded, .fatal, .cancelled:
                return outcome
            }
        }
    }

    /// The wait before the next try after a failed fetch or a 429. A failure backs off, and a signal (an event, a
    /// context switch, ``RemoteBoard/refresh()``) ends that wait at once. A 429 waits its `Retry-After`, and at
    /// least the backoff, so a server answering `Retry-After: 0` does not get a request loop.
    private func pause(after outcome: FetchOutcome, attempt: inout Int) async {
        attempt += 1
        let backoff = configuration.backoff.delay(attempt: attempt)
        if case .retryAfter(let delay) = outcome {
            try? await Task.sleep(for: max(delay, backoff))
        } else {
            _ = await refetch.wait(for: backoff)
        }
    }

    /// Returns `.inactive` once the app has been inactive for the inactivity delay.
    private func watchInactivity() async -> StreamEnd {
        while !Task.isCancelled {
            if state.withLock({ $0.active }) {
                await activity.wait()
                continue
            }
            let seconds = state.withLock { $0.serverInactivity } ?? 120
            let delay = configuration.inactivityDelay ?? .seconds(seconds)
            if await activity.wait(for: delay) { continue }
            if !state.withLock({ $0.active }) { return .inactive }
        }
        return .cancelled
    }

    /// Returns `.silent` once nothing has arrived on the stream (`lastHeard` is when something last did) for
    /// `limit`.
    private func watchSilence(since lastHeard: Locked<ContinuousClock.Instant>, limit: Duration) async -> StreamEnd {
        while !Task.isCancelled {
            let deadline = lastHeard.withLock { $0 } + limit
            if ContinuousClock.now >= deadline {
                report(.unreachable("event stream: nothing received for \(limit); reconnecting"))
                return .silent
            }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
        return .cancelled
    }

    static func isRefetch(_ event: ServerSentEvent) -> Bool {
        guard let data = try? Value(json: event.data), case .object(let object) = data else { return false }
        return object["type"]?.stringValue == "refetchEvaluation"
    }
}
