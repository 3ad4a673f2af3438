public import Foundation
import Locking
public import Logging
public import Switchboard

/// Flags from any OFREP server, answered from memory: the typed lookups of `Board` for one evaluation context,
/// kept current over the server's event stream (or by polling), and an offline start from the last good answer.
///
/// ```swift
/// let remote = try RemoteBoard(RemoteConfiguration(
///     baseURL: "http://127.0.0.1:8016", context: EvaluationContext(targetingKey: "user-42"),
///     credentials: .bearer(token), cacheDirectory: cachesFolder))
/// if remote.value(Flags.Checkout.newFlow) { ... }          // the generated keys work on both boards
/// for await change in remote.changes { ... }
/// ```
///
/// Lookups read an immutable snapshot through one atomic load: they never wait for the network and never throw.
/// A background task fetches the bulk evaluation (`POST /ofrep/v1/evaluate/flags`) with `If-None-Match`, follows
/// the `eventStreams` the server advertises (refetching on each `refetchEvaluation`, a burst coalesced into one),
/// reconnects with backoff and jitter, and polls every ``RemoteConfiguration/pollInterval`` when there is no
/// stream. 401 and 403 stop it (``status`` says so, the last values stay); 429 waits for `Retry-After`; 5xx,
/// network errors and bodies that are not OFREP back off and keep the last good values.
public final class RemoteBoard: FlagReader {
    /// Where the board stands.
    public enum Status: Sendable, Hashable {
        /// No answer yet and no cache: lookups give the caller's defaults.
        case starting
        /// Serving the server's current answer.
        case live
        /// Serving the cached answer of an earlier run; still trying to reach the server.
        case cached
        /// The server refused the credentials (401 or 403); fetching stopped, the last values stay.
        case unauthorized(status: Int)
        /// ``stop()`` was called.
        case stopped
    }

    /// The configuration the board was made with (its context is the first one).
    public let configuration: RemoteConfiguration
    let core: RemoteCore
    private let task: Locked<Task<Void, Never>?>

    /// Makes a board and starts fetching in the background. The cached answer for the configured context, when
    /// there is one, is in service before this returns, and the board is then settled
    /// (``waitUntilSettled(timeout:)`` returns at once).
    ///
    /// - Parameters:
    ///   - configuration: the server, the context, credentials, cache and timing.
    ///   - transport: how to talk HTTP; by default an ``HTTPClientTransport`` with a client of its own, which
    ///     reports a refused connection at once and is shut down when the board is released.
    ///   - logger: where failures are reported (unreachable server, bodies that are not OFREP, corrupt cache).
    public init(
        _ configuration: RemoteConfiguration,
        transport: any RemoteTransport = HTTPClientTransport(),
        logger: Logger = Logger(label: "switchboard.remote")
    ) {
        self.configuration = configuration
        core = RemoteCore(configuration: configuration, transport: transport, logger: logger)
        core.loadCache(for: configuration.context)
        let core = core
        task = Locked(Task { await core.run() })
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Stops fetching and following changes; lookups keep answering from the last values.
    public func stop() async {
        let running = task.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
        core.finish()
    }

    // MARK: - Lookups

    /// The value of `key` as `T`, or `defaultValue` when the key is missing, failed or does not fit.
    @inlinable
    public func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T {
        var result: T?
        visitValue(key) { result = T(flagValue: $0) }
        return result ?? defaultValue
    }

    /// The fast path: one atomic load, one dictionary lookup, then `visit` with the value (the caller's
    /// conversion, specialized in the caller's module), run while the snapshot is read. Not generic, like
    /// `Board`'s, so that a caller in another module that inlines ``value(_:default:)`` for its own type runs
    /// compiled code rather than an unspecialized generic lookup.
    @usableFromInline
    func visitValue(_ key: String, _ visit: (Value) -> Void) {
        core.cell.read { snapshot in
            if let value = snapshot.value(key) { visit(value) }
        }
    }

    /// The value with how it was chosen: the server's reason and variant (`CACHED` while serving the cache), or
    /// the caller's default with an error code: the server's per-flag error (`FLAG_NOT_FOUND`, …),
    /// `TYPE_MISMATCH`, or `PROVIDER_NOT_READY` when there is neither an answer nor a cache yet.
    ///
    /// A remote board answers for its own context: pass `.empty` (the default) or that context. Another context
    /// gives the caller's default with `INVALID_CONTEXT`; switch with ``setContext(_:)``.
    public func details<T: FlagValue>(
        _ key: String, as type: T.Type = T.self, default defaultValue: T, context: EvaluationContext = .empty
    ) -> Details<T> {
        Details(key: key, resolution: resolution(key, context: context), default: defaultValue)
    }

    /// A key's answer, untyped: the value (`nil` when the caller's default applies), variant, reason and error,
    /// as ``details(_:as:default:context:)`` reports them, and the server's metadata.
    public func resolve(_ key: String) -> Resolution {
        resolution(key, context: .empty)
    }

    private func resolution(_ key: String, context: EvaluationContext) -> Resolution {
        if !context.isEmpty, context != core.context {
            return .failure(.invalidContext,
                            "a remote board answers for its own context; use setContext(_:) to change it")
        }
        let snapshot = core.cell.snapshot
        if let resolution = snapshot.resolution(of: key) { return resolution }
        if snapshot.source == .none {
            let why = core.lastError.map { ": \($0)" } ?? ""
            return .failure(.providerNotReady, "no answer from \(configuration.baseURL) yet and no cached one\(why)")
        }
        return .notFound(key)
    }

    // The typed getters again, compiled here for their concrete types: callers that reach a RemoteBoard through
    // `any FlagReader` or an unspecialized generic get these, as fast as Board's, instead of FlagReader's generic
    // defaults.

    // MARK: - Device-local overrides

    /// Overrides a key on this device only, for in-app debug panels: the value wins over the server's from now on,
    /// is persisted atomically in the cache directory (so it survives restarts, and applies offline), is
    /// reported with the reason `OVERRIDE` and the layer `runtime`, and reaches ``changes`` and
    /// `FlagReader/updates(of:)`. The server never sees it.
    ///
    /// With `expiresAt`, the override stops counting at that moment (by ``RemoteConfiguration/clock``), the
    /// server's value applies again and the change is published, online or not: a debug toggle left on "for an
    /// hour" goes by itself.
    ///
    /// - Throws: ``LocalOverrideError`` when the server's answer has no such key, the value has another type
    ///   than the server's or nests deeper than 64 levels, or the file cannot be written; nothing changes then.
    public func setLocalOverride<T: FlagValue>(
        _ key: String, to value: T, actor: String = "device", expiresAt: Date? = nil
    ) throws(LocalOverrideError) {
        try core.setLocal([key: value.flagValue], actor: actor,
                          expiresAt: expiresAt.map { StoredOverride.time(secondsSinceEpoch: $0.timeIntervalSince1970) })
    }

    /// Removes a key's device-local override; the server's value applies again.
    public func resetLocalOverride(_ key: String) throws(LocalOverrideError) {
        try core.setLocal([key: Value?.none], actor: "device")
    }

    /// Removes every device-local override.
    public func resetAllLocalOverrides() throws(LocalOverrideError) {
        try core.resetAllLocal()
    }

    /// The device-local overrides in effect, by key.
    public var localOverrides: [String: Value] {
        core.local.live(at: core.configuration.clock.now()).mapValues(\.value)
    }

    /// Every key the current answer has.
    public var keys: [String] { core.cell.snapshot.flags.keys.sorted() }

    // MARK: - State and control

    /// Every change to a value from now on: a new answer from the server, the cache served at a context switch.
    /// Each access makes a new stream.
    public var changes: AsyncStream<ValueChange> { core.subscribe() }

    /// Calls `onChange` after each answer that changed `key`'s value (or its device-local override), and after no
    /// other. `FlagReader/updates(of:)` is built on it.
    public func observe(_ key: String, _ onChange: @escaping @Sendable (ValueChange) -> Void) -> ChangeSubscription {
        core.publisher.observe(key, onChange)
    }

    /// How many observers of single keys are registered (for tests of their release).
    package var observerCount: Int { core.publisher.observerCount }

    /// The revision of the answer in service: it grows with every answer (or local override) that is published.
    public var revision: UInt64 { core.cell.snapshot.revision }

    /// Where the board stands.
    public var status: Status { core.status }

    /// The last failure: unreachable server (saying whether the connection was refused, timed out, reset or
    /// closed), an HTTP status, a body that is not OFREP, a corrupt cache file; `nil` after a good answer.
    public var lastError: RemoteError? { core.lastError }

    /// The context values are evaluated for.
    public var context: EvaluationContext { core.context }

    /// Switches the context (say, to the user who signed in) and refetches. The cached answer for the new
    /// context, when there is one, is served until the server answers.
    public func setContext(_ context: EvaluationContext) {
        core.setContext(context)
    }

    /// Fetches now, outside the polling schedule; also retries after a 401 or 403.
    public func refresh() {
        core.refetch.signal()
    }

    /// Tells the board whether the app is in use. After ``RemoteConfiguration/inactivityDelay`` (or the
    /// server's `inactivityDelaySec`, or 120 s) inactive, the event stream closes; when active again the board
    /// reconnects and refetches in full (OFREP ADR 0008).
    public func setActive(_ active: Bool) {
        core.setActive(active)
    }

    /// Waits until the board is settled, or `timeout` passes; returns whether it is settled.
    ///
    /// The board is settled as soon as one of these holds, and stays settled from then on (a context switch does
    /// not unsettle it):
    /// - it serves a cached answer for its context: a board made with a cache for its context is settled before
    ///   its initializer returns, so this returns at once, ``status`` is ``Status/cached`` and lookups give the
    ///   cached values with the reason `CACHED`, while fetching goes on in the background and replaces them when
    ///   the server answers;
    /// - it serves the server's answer (``Status/live``);
    /// - its first fetch has failed: the server refused the connection, did not answer within
    ///   ``RemoteConfiguration/timeout``, answered with an error status or a body that is not OFREP.
    ///   ``lastError`` says which, and lookups give the caller's defaults with `PROVIDER_NOT_READY`.
    ///
    /// With the default transport a refused connection fails the first fetch at once, so an app that awaits this at
    /// launch waits for the request timeout only when the server accepts the connection and then stays silent,
    /// and not even then when it has a cache.
    @discardableResult
    public func waitUntilSettled(timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if core.settled { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return core.settled
    }
}

/// A failure a ``RemoteBoard`` reports through ``RemoteBoard/lastError`` and its logger.
public enum RemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response: connection refused, timeout, reset, closed midway; the text is the transport's account
    /// (``RemoteTransportError``'s description with the default transport), `event stream: ` first when the event
    /// stream failed.
    case unreachable(String)
    /// A status the board does not take as an answer.
    case httpStatus(Int)
    /// 401 or 403.
    case unauthorized(Int)
    /// 429, with the wait the server asked for.
    case rateLimited(retryAfter: Duration)
    /// A 200 whose body is not a bulk evaluation; the last good values stay.
    case invalidBody(String)
    /// A cache file that could not be used; it was ignored.
    case corruptCache(String)

    /// A readable account.
    public var description: String {
        switch self {
        case .unreachable(let why): "server unreachable: \(why)"
        case .httpStatus(let status): "server answered \(status)"
        case .unauthorized(let status): "server refused the credentials (\(status)); fetching stopped"
        case .rateLimited(let delay): "server asked to wait (429), retrying in \(delay)"
        case .invalidBody(let why): "the answer is not a valid OFREP bulk evaluation: \(why)"
        case .corruptCache(let why): why
        }
    }
}

extension RemoteBoard: PreferenceStore {
    /// Sets a device-local override, as ``setLocalOverride(_:to:actor:expiresAt:)`` does.
    public func setOverride(_ key: String, to value: Value, actor: String) throws {
        try core.setLocal([key: value], actor: actor)
    }

    /// Removes a device-local override, as ``resetLocalOverride(_:)`` does.
    public func resetOverride(_ key: String, actor: String) throws {
        try core.setLocal([key: Value?.none], actor: actor)
    }
}
