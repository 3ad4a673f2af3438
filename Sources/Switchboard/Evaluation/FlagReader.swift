import Locking
import Logging

/// What every board answers: typed lookups that never throw, their details, and a stream of changes.
///
/// ``Board`` reads local definitions; `RemoteBoard` (in `SwitchboardRemote`) reads an OFREP server. Code that
/// takes `some FlagReader` works with either, and so do the typed keys `switchboard generate` writes:
///
/// ```swift
/// func render(_ flags: some FlagReader) {
///     if flags.value(Flags.Checkout.newFlow) { ... }
/// }
/// ```
///
/// A reader answers for one evaluation context: a local board for the empty context unless a lookup passes one,
/// a remote board for the context it was given.
public protocol FlagReader: Sendable {
    /// The value of `key` as `T`, or `defaultValue` when the key is missing or its value does not fit.
    func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T

    /// The value with everything about how it was chosen; on a missing key or a type mismatch, the caller's
    /// default with the reason `ERROR` and an error code.
    func details<T: FlagValue>(
        _ key: String, as type: T.Type, default defaultValue: T, context: EvaluationContext
    ) -> Details<T>

    /// Every change to a value from now on. Each access makes a new stream.
    var changes: AsyncStream<ValueChange> { get }

    /// A number that grows with every change the board publishes; a ``ValueChange`` carries the revision it made.
    var revision: UInt64 { get }

    /// Calls `onChange` with the key's ``ValueChange`` after each change of `key`'s resolution (a write here or in
    /// another process, an edit to the definitions or an override file, a reload, a server's answer), and after no
    /// other, until the subscription is cancelled or released. ``updates(of:)`` and ``BoardModel`` are built on it.
    ///
    /// Where and when handlers run (this, a board's `subscribe(_:)` and `changes`): on the thread that made the
    /// change, after the change is in service and every board lock is released, and before the write that made it
    /// returns, so code after `set` can rely on its handlers having run. A handler may read the board, write to it,
    /// subscribe or cancel: a write made inside a handler is queued and delivered after that handler returns, so
    /// every handler sees the changes in the order they happened. One thread delivers at a time; a handler must
    /// not block, nor wait for a write made on another thread.
    func observe(_ key: String, _ onChange: @escaping @Sendable (ValueChange) -> Void) -> ChangeSubscription
}

extension FlagReader {
    /// The value of a typed key, or its default.
    @inlinable
    public func value<T: FlagValue>(_ key: FlagKey<T>) -> T {
        value(key.key, default: key.defaultValue)
    }

    /// The details of a typed key.
    @inlinable
    public func details<T: FlagValue>(_ key: FlagKey<T>) -> Details<T> {
        details(key.key, as: T.self, default: key.defaultValue, context: .empty)
    }

    /// The details of a key, for the reader's own context.
    @inlinable
    public func details<T: FlagValue>(_ key: String, default defaultValue: T) -> Details<T> {
        details(key, as: T.self, default: defaultValue, context: .empty)
    }

    /// A bool, or `defaultValue` when the key is missing or not a bool.
    @inlinable
    public func bool(_ key: String, default defaultValue: Bool) -> Bool { value(key, default: defaultValue) }

    /// An int, or `defaultValue`.
    @inlinable
    public func int(_ key: String, default defaultValue: Int) -> Int { value(key, default: defaultValue) }

    /// A double (ints widen), or `defaultValue`.
    @inlinable
    public func double(_ key: String, default defaultValue: Double) -> Double { value(key, default: defaultValue) }

    /// A string, or `defaultValue`.
    @inlinable
    public func string(_ key: String, default defaultValue: String) -> String { value(key, default: defaultValue) }

    /// A list, or `defaultValue`.
    @inlinable
    public func list(_ key: String, default defaultValue: [Value]) -> [Value] { value(key, default: defaultValue) }

    /// An object, or `defaultValue`.
    @inlinable
    public func object(_ key: String, default defaultValue: [String: Value]) -> [String: Value] {
        value(key, default: defaultValue)
    }
}

extension FlagReader {
    /// The key's value now, then each time it changes, from any source; a value equal to the last one is not
    /// repeated. Ending the consuming task (or dropping the stream) ends the subscription.
    ///
    /// ```swift
    /// for await mode in board.updates(of: Prefs.Camera.mode) { render(mode) }
    /// ```
    ///
    /// An unknown key yields the key's default (and logs a warning once); a value that no longer fits the type
    /// yields the default until it fits again: ``detailedUpdates(of:)`` says why.
    public func updates<T: FlagValue>(of key: FlagKey<T>) -> AsyncStream<T> {
        updates(of: key.key, default: key.defaultValue)
    }

    /// The value of a key by name, now and at each change, as ``updates(of:)`` for a typed key.
    public func updates<T: FlagValue>(of key: String, default defaultValue: T) -> AsyncStream<T> {
        keyStream(key, default: defaultValue) { details in (details.value, details.value.flagValue) }
    }

    /// The key's ``Details`` now, then each time its value, reason or layer changes.
    public func detailedUpdates<T: FlagValue>(of key: FlagKey<T>) -> AsyncStream<Details<T>> {
        detailedUpdates(of: key.key, default: key.defaultValue)
    }

    /// The ``Details`` of a key by name, now and at each change, as ``detailedUpdates(of:)`` for a typed key.
    public func detailedUpdates<T: FlagValue>(of key: String, default defaultValue: T) -> AsyncStream<Details<T>> {
        keyStream(key, default: defaultValue) { details in (details, details.changeToken) }
    }

    /// A stream of what `element` makes of the key's details, yielded when its token differs from the last one
    /// yielded: the current one first, then after each change of the key.
    private func keyStream<T: FlagValue, Element: Sendable, Token: Equatable & Sendable>(
        _ key: String, default defaultValue: T,
        _ element: @escaping @Sendable (Details<T>) -> (element: Element, token: Token)
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1_000))
        // The last token and revision yielded, under the stream's own lock: the current value read at the start
        // and changes delivered meanwhile on other threads are yielded in revision order, never twice, and a change
        // at or below a revision already read (older than what was yielded) is dropped.
        let last = Locked<(token: Token?, revision: UInt64)>((nil, 0))
        let emit: @Sendable (Details<T>, UInt64) -> Void = { details, revision in
            last.withLock { last in
                if revision != 0, revision <= last.revision { return }
                last.revision = max(last.revision, revision)
                let (element, token) = element(details)
                guard token != last.token else { return }
                last.token = token
                continuation.yield(element)
            }
        }
        // The change carries its resolution, so nothing is read again; a key that is gone reads as the board says.
        let subscription = observe(key) { [self] change in
            let details = change.resolution.map { Details(key: key, resolution: $0, default: defaultValue) }
                ?? details(key, as: T.self, default: defaultValue, context: .empty)
            emit(details, change.revision)
        }
        // The current value with the revision it belongs to: read again if a change was published meanwhile.
        var current: (details: Details<T>, revision: UInt64)
        repeat {
            let before = revision
            current = (details(key, as: T.self, default: defaultValue, context: .empty), before)
        } while revision != current.revision
        if current.details.errorCode == .flagNotFound {
            FlagReaderLog.logger.warning("observing \(key), which no definition has; its default is used",
                                         metadata: ["key": "\(key)"])
        }
        emit(current.details, current.revision)
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}

/// Where lookups through ``FlagReader``'s shared code report what a caller should know.
private enum FlagReaderLog {
    static let logger = Logger(label: "switchboard")
}

extension Details where T: FlagValue {
    /// What a change of these details is measured by: the value as a ``Value``, and how it was chosen.
    fileprivate var changeToken: [Value?] {
        [value.flagValue, variant.map(Value.string), .string(reason.rawValue), layer.map { .string($0.rawValue) },
         errorCode.map { .string($0.rawValue) }]
    }
}
