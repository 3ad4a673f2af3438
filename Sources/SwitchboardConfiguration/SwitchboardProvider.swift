public import Configuration
public import Switchboard
import Synchronization

/// A swift-configuration provider over a Switchboard board: `ConfigReader` reads flags and preferences by key, with
/// their types, and watches follow the board's changes.
///
/// ```swift
/// let board = try Board(directory: "flags")
/// let config = ConfigReader(provider: SwitchboardProvider(board: board))
/// let newFlow = config.bool(forKey: "checkout.new_flow", default: false)
/// let limit = config.int(forKey: "app.upload.max_mb", default: 10)
/// let sort = config.string(forKey: "app.history.sort_order", as: SortOrder.self, default: .newestFirst)
/// ```
///
/// **Keys.** A key's components, joined with `.`, are the Switchboard key: `checkout.new_flow` and
/// `["checkout", "new_flow"]` both read the definition `new_flow` of the file with `namespace: checkout`. Keys are
/// not converted: `checkout.newFlow` is not `checkout.new_flow` (wrap the provider in `mapKeys` to convert).
///
/// **Types.** `bool`, `int`, `double` and `string` values read as the same swift-configuration type; a `list`
/// reads as `[Bool]`, `[Int]`, `[Double]` or `[String]` when every element has that type (ints also count as
/// doubles there). A value read as another type, an `object` value, and any value read as bytes are a type
/// mismatch: the provider throws ``TypeMismatch``, as swift-configuration's own providers throw theirs, so the
/// reader returns the default (and reports the error to its access reporter), a `required…` read throws, and a
/// reader with several providers stops at this one rather than asking the next. An `int` definition read as a
/// double is a mismatch too, as in `InMemoryProvider`; a `double` definition is always a double, even when it
/// holds `2`. Missing keys are absent, so the reader's default or the next provider applies. Switchboard has no
/// secrets: values are not secret unless the reader marks them (`isSecret: true`).
///
/// **Evaluation context.** Targeted values are evaluated for ``context``, with the key's own context
/// (`ConfigKey("checkout.new_flow", context: ["plan": "pro"])`) added as attributes on top, a `targetingKey` entry
/// as the targeting key. A `RemoteBoard` answers for its own context and ignores both.
///
/// **Consistency and changes.** ``snapshot()`` reads one board snapshot, so its values never mix two
/// publications. ``watchValue(forKey:type:updatesHandler:)`` and ``watchSnapshot(updatesHandler:)`` emit the current
/// state first, then again after each publication of the board (a runtime override set, a reload, another
/// process's write to the store, a new answer from the server) that changes what they read.
/// ``fetchValue(forKey:type:)`` answers as ``value(forKey:type:)`` does: the board keeps its snapshot current.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct SwitchboardProvider: Sendable {
    /// The context targeted values are evaluated for, unless a key's context adds to it.
    public let context: EvaluationContext
    /// The board's snapshots, whatever kind of board it is.
    private let source: Source

    /// Creates a provider over a board: a `Board`, a `RemoteBoard`, or any other `SnapshotSource`.
    ///
    /// - Parameters:
    ///   - board: where the values come from; the provider keeps it alive.
    ///   - context: who targeted values are evaluated for, on every read; the empty context by default, which
    ///     gives what `board.bool(_:default:)` and the other lookups without a context give. A `RemoteBoard`
    ///     ignores it.
    public init(board: some SnapshotSource, context: EvaluationContext = .empty) {
        self.source = Source(board)
        self.context = context
    }

    /// The board's current snapshot and change feed, with the board's own snapshot type erased.
    private struct Source: Sendable {
        let current: @Sendable () -> any ValueSnapshot
        let subscribe: @Sendable (@escaping @Sendable (_ changedKeys: [String]) -> Void) -> ChangeSubscription

        init(_ board: some SnapshotSource) {
            current = { board.snapshot }
            subscribe = { handler in board.subscribeToSnapshots { _, changedKeys in handler(changedKeys) } }
        }
    }

    /// A config snapshot over the board's current snapshot.
    private var currentSnapshot: Snapshot {
        Snapshot(values: source.current(), context: context)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension SwitchboardProvider: ConfigProvider {
    /// `SwitchboardProvider`, the name access reporters show.
    public var providerName: String { Snapshot.providerName }

    /// The current value of a key as `type`: `nil` for a key no definition has (or that has no value); throws
    /// ``TypeMismatch`` for a value that is not of `type`.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try currentSnapshot.value(forKey: key, type: type)
    }

    /// The same as ``value(forKey:type:)``: the board keeps its snapshot current, so there is nothing to fetch.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    /// The current values of every key, from one board snapshot: reads of it never see two publications.
    public func snapshot() -> any ConfigSnapshot {
        currentSnapshot
    }

    /// Calls `updatesHandler` with the key's current lookup result, followed by a new one after each change to the
    /// board that changes the key's value (or its type mismatch). The updates end when the handler returns.
    nonisolated(nonsending) public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (
            _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
        ) async throws -> Return
    ) async throws -> Return {
        let context = context
        let feed = SnapshotFeed<Snapshot.Reading, Result<LookupResult, any Error>> { values in
            let snapshot = Snapshot(values: values, context: context)
            return (snapshot.reading(forKey: key), Result { try snapshot.value(forKey: key, type: type) })
        }
        return try await follow(feed, onlyChanges: false, updatesHandler: updatesHandler)
    }

    /// Calls `updatesHandler` with the current snapshot, followed by a new one after each change to the board.
    /// The updates end when the handler returns.
    nonisolated(nonsending) public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (
            _ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>
        ) async throws -> Return
    ) async throws -> Return {
        let context = context
        let feed = SnapshotFeed<SameSnapshot, any ConfigSnapshot> { values in
            (SameSnapshot(values), Snapshot(values: values, context: context))
        }
        return try await follow(feed, onlyChanges: true, updatesHandler: updatesHandler)
    }

    /// Feeds `feed` from the board for as long as `updatesHandler` runs: the current snapshot first, then the
    /// snapshot in service after each publication (after each one that changed a key, with `onlyChanges`).
    nonisolated(nonsending) private func follow<Reading, Element, Return: ~Copyable>(
        _ feed: SnapshotFeed<Reading, Element>, onlyChanges: Bool,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Element, Never>) async throws
            -> Return
    ) async throws -> Return {
        let source = source
        // The handler reads the snapshot in service rather than the one it is given, so a publication that
        // arrives after a newer snapshot has been offered cannot step the watcher back to older values.
        let subscription = source.subscribe { changedKeys in
            if !onlyChanges || !changedKeys.isEmpty { feed.offer(source.current) }
        }
        defer {
            subscription.cancel()
            feed.finish()
        }
        feed.offer(source.current)
        return try await updatesHandler(ConfigUpdatesAsyncSequence(feed.updates))
    }
}
