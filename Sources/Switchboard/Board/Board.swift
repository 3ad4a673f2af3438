public import CoreMetrics
public import Foundation
import Locking
public import Logging
import YAML

/// The facade a program creates once and shares: definitions plus their override layers, answering typed
/// lookups on the hot path, taking runtime overrides, and reporting changes.
///
/// ```swift
/// let board = try Board(directory: "flags")
/// if board.bool("checkout.new_flow", default: false) { ... }
/// let limit = board.value(FlagKey("app.upload.max_mb", default: 25))
/// try board.set("app.upload.max_mb", to: 100, actor: "alice")
/// for await change in board.changes { print(change.key, change.new) }
/// ```
///
/// Lookups never throw and never block: they read an immutable ``Snapshot`` that is swapped atomically when
/// anything changes. `Board` is `Sendable`; share one instance.
public final class Board: Sendable {
    /// Refusals of `set(_:to:actor:expiresAt:expectedVersion:)` and `reset(_:actor:expectedVersion:)`.
    public enum SetError: Error, Sendable, CustomStringConvertible {
        /// No definition has the key.
        case unknownKey(String, suggestions: [String])
        /// The value does not fit the definition.
        case invalidValue(key: String, ValueProblem)
        /// The store could not be read or written, or a compare-and-set write lost its race; nothing was changed.
        case store(StoreError)

        /// The catalog message of an unknown key or a refused value (`nil` for a store error).
        package var message: Message? {
            switch self {
            case .unknownKey(let key, let suggestions): .unknownKey(key, suggestions: suggestions)
            case .invalidValue(let key, let problem): .refusedValue(key: key, problem: problem, type: nil)
            case .store: nil
            }
        }

        /// The refusal as a diagnostic without a place: the catalog message, or the store's error, with its hint.
        package var diagnostic: Diagnostic {
            if case .store(let error) = self { return error.diagnostic }
            return message?.diagnostic ?? .error(at: nil, description)
        }

        /// A readable account, with a hint.
        public var description: String {
            switch self {
            case .unknownKey, .invalidValue:
                message.map { message in message.text + (message.hint.map { "\n  hint: \($0)" } ?? "") } ?? ""
            case .store(let error):
                error.description
            }
        }
    }

    /// What the board is built from: definitions, override files, environment and runtime store.
    public let inputs: BoardInputs
    /// The definitions directory (empty for definitions given as text).
    public var directory: String { inputs.directory ?? "" }
    /// The runtime store.
    public var store: any RuntimeStore { inputs.store }
    /// The snapshot in service, and what keeps it current.
    let engine: BoardEngine
    /// The same cell as `engine`'s, held here so a lookup reaches it in one step.
    private let cell: SnapshotCell<Snapshot>
    /// Whether typed lookups add a `feature_flag.evaluation` event: one test of a constant on the hot path.
    @usableFromInline let evaluationEvents: EvaluationEvents
    /// The options' clock: the "now" of the audit history's expiries and of the time an override has left.
    package let clock: any BoardClock
    /// Loads definitions from a directory with their override layers, and starts watching for changes.
    ///
    /// - Throws: ``LoadError`` with every diagnostic when the definitions or an override file have errors.
    public convenience init(directory: String = "flags", options: BoardOptions = BoardOptions()) throws(LoadError) {
        try self.init(inputs: BoardInputs(directory: directory), options: options)
    }

    /// Builds a board from resolved inputs, and starts watching for changes when the options poll.
    ///
    /// - Throws: ``LoadError`` with every diagnostic when the definitions or an override file have errors.
    public init(inputs: BoardInputs, options: BoardOptions = BoardOptions()) throws(LoadError) {
        self.inputs = inputs
        engine = try BoardEngine(inputs: inputs, options: options)
        cell = engine.cell
        evaluationEvents = options.evaluationEvents
        clock = options.clock
    }

    deinit {
        engine.stopWatching()
    }

    // MARK: - Lookups

    /// Where the board's metrics go, and where a server on it sends its own: ``BoardOptions/metricsFactory``, or the
    /// `MetricsSystem.factory` in effect when the board was made.
    public var metricsFactory: any MetricsFactory { engine.telemetry.factory }

    /// Where the board logs: ``BoardOptions/logger``.
    public var logger: Logger { engine.telemetry.logger }

    /// The current snapshot: every definition and its resolved state. Keep it only briefly; it is replaced on
    /// every change.
    public var snapshot: Snapshot { cell.snapshot }

    /// The definitions in use.
    public var registry: Registry { cell.snapshot.registry }

    /// Resolves a key: its value, layer and reason, or an error code.
    public func resolve(_ key: String, context: EvaluationContext = .empty) -> Resolution {
        cell.read { $0.resolve(key, context: context) }
    }

    /// The next moment values change by themselves, with the keys that may change then, and the snapshot as it
    /// will be at that moment: what the server announces to remote boards, so they can apply it offline.
    package func upcomingChange() -> (at: Double, keys: Set<String>, snapshot: Snapshot)? {
        guard let (time, keys) = engine.upcomingChange() else { return nil }
        return (time, keys, engine.snapshot(at: time))
    }

    /// The snapshot as of another time (seconds since the epoch), as ``resolve(_:at:context:)`` reads it: for a
    /// listing of every key then (`list --at`).
    package func snapshot(at time: Double) -> Snapshot {
        engine.snapshot(at: time)
    }

    /// Resolves a key as of another time: the schedule steps in force then and the runtime overrides not yet
    /// expired then (`$flagd.timestamp` reads that time); the definitions, files and store as they are now.
    ///
    /// ```swift
    /// let monday = board.resolve("checkout.new_flow", at: Date(timeIntervalSince1970: 1_796_115_600))
    /// ```
    public func resolve(_ key: String, at time: Date, context: EvaluationContext = .empty) -> Resolution {
        engine.snapshot(at: time.timeIntervalSince1970).resolve(key, context: context)
    }

    /// Typed lookup with the caller's default; never throws.
    @inlinable
    public func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T {
        if evaluationEvents.isOn { return tracedValue(key, default: defaultValue, context: .empty) }
        var result: T?
        visitValue(key) { result = T(flagValue: $0) }
        return result ?? defaultValue
    }

    /// Typed lookup for a context with the caller's default; never throws.
    public func value<T: FlagValue>(_ key: String, default defaultValue: T, context: EvaluationContext) -> T {
        if evaluationEvents.isOn { return tracedValue(key, default: defaultValue, context: context) }
        return cell.read { snapshot in
            guard let position = snapshot.registry.position(of: key),
                  let value = snapshot.value(at: position, context: context)
            else { return nil }
            return T(flagValue: value)
        } ?? defaultValue
    }

    /// Typed lookup of a typed key for a context. (Without a context, ``FlagReader``'s `value(_:)` serves, on the
    /// fast path of ``value(_:default:)``.)
    @inlinable
    public func value<T: FlagValue>(_ key: FlagKey<T>, context: EvaluationContext) -> T {
        value(key.key, default: key.defaultValue, context: context)
    }

    /// The fast path: hands `visit` the context-free value of a key, if it has one, with no allocation. `visit`
    /// runs while the snapshot is read, so a lookup inside it is a nested read (see ``SnapshotCell``).
    ///
    /// Not generic, so that a caller in another module that inlines ``value(_:default:)`` for its own type (a
    /// ``FlagKey``, as generated accessors use) calls this compiled code with its own specialized conversion; a
    /// generic function here would run unspecialized for such callers, about 1.5 times as slow.
    @usableFromInline
    func visitValue(_ key: String, _ visit: (Value) -> Void) {
        cell.read { snapshot in
            guard let position = snapshot.registry.position(of: key) else { return }
            let entry = snapshot.fast(position)
            if entry.isDynamic {
                if let value = snapshot.dynamicValue(at: position, context: .empty) { visit(value) }
            } else if let value = entry.value {
                visit(value)
            }
        }
    }

    /// A typed lookup that adds the `feature_flag.evaluation` event to the current span: the full resolution,
    /// since the event names the reason and variant.
    @usableFromInline
    func tracedValue<T: FlagValue>(_ key: String, default defaultValue: T, context: EvaluationContext) -> T {
        let resolution = resolve(key, context: context)
        let typed = resolution.value.flatMap { T(flagValue: $0) }
        if let span = EvaluationEvent.currentSpan() {
            EvaluationEvent.record(
                key: key, resolution: resolution,
                errorCode: resolution.value != nil && typed == nil ? .typeMismatch : nil,
                includeValue: evaluationEvents.includesValues, on: span)
        }
        return typed ?? defaultValue
    }

    // The typed getters for a context. Without one, ``FlagReader``'s serve (`bool(_:default:)` and the rest), on
    // the fast path of ``value(_:default:)``.

    /// A bool for a context, or `defaultValue` when the key is missing or not a bool.
    public func bool(_ key: String, default defaultValue: Bool, context: EvaluationContext) -> Bool {
        value(key, default: defaultValue, context: context)
    }

    /// An int for a context, or `defaultValue`.
    public func int(_ key: String, default defaultValue: Int, context: EvaluationContext) -> Int {
        value(key, default: defaultValue, context: context)
    }

    /// A double for a context (ints widen), or `defaultValue`.
    public func double(_ key: String, default defaultValue: Double, context: EvaluationContext) -> Double {
        value(key, default: defaultValue, context: context)
    }

    /// A string for a context, or `defaultValue`.
    public func string(_ key: String, default defaultValue: String, context: EvaluationContext) -> String {
        value(key, default: defaultValue, context: context)
    }

    /// A list for a context, or `defaultValue`.
    public func list(_ key: String, default defaultValue: [Value], context: EvaluationContext) -> [Value] {
        value(key, default: defaultValue, context: context)
    }

    /// An object for a context, or `defaultValue`.
    public func object(
        _ key: String, default defaultValue: [String: Value], context: EvaluationContext
    ) -> [String: Value] {
        value(key, default: defaultValue, context: context)
    }

    /// The value with everything about how it was chosen; on a missing key or a type mismatch, the caller's
    /// default with the reason `ERROR` and an error code.
    public func details<T: FlagValue>(
        _ key: String, as type: T.Type = T.self, default defaultValue: T, context: EvaluationContext = .empty
    ) -> Details<T> {
        let resolution = resolve(key, context: context)
        let details = Details(key: key, resolution: resolution, default: defaultValue)
        if evaluationEvents.isOn, let span = EvaluationEvent.currentSpan() {
            EvaluationEvent.record(key: key, resolution: resolution, errorCode: details.errorCode,
                                   includeValue: evaluationEvents.includesValues, on: span)
        }
        return details
    }

    /// The details of a typed key.
    public func details<T: FlagValue>(_ key: FlagKey<T>, context: EvaluationContext = .empty) -> Details<T> {
        details(key.key, default: key.defaultValue, context: context)
    }

    // MARK: - Runtime overrides

    /// Sets a runtime override after checking it against the definition; persisted atomically and logged as an
    /// unverified write of `actor`, as `set(_:to:as:expiresAt:expectedVersion:)` with ``Attribution/unverified(_:)``.
    ///
    /// - Parameters:
    ///   - key: the definition's key.
    ///   - value: the value, checked with ``Definition/fit(_:)``.
    ///   - actor: who makes the change, for the audit log.
    ///   - expiresAt: when the override stops counting, on every board of the store, and the value falls back to
    ///     the next layer (`nil`: it never does). Stored to the millisecond; a moment already past writes an
    ///     override that never counts, so callers check it first, as the command line and the admin API do.
    ///   - expectedVersion: for compare-and-set: the version of the key's override the caller read
    ///     (``StoredOverride/version``, 0 for none); the write fails with a conflict when it has changed since.
    /// - Returns: the store's version after the write.
    /// - Throws: ``SetError`` when the key is unknown, the value does not fit, the store cannot be written, or the
    ///   override is not at `expectedVersion`; nothing is written then.
    @discardableResult
    public func set(
        _ key: String, to value: Value, actor: String, expiresAt: Date? = nil, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        try set(key, to: value, as: .unverified(actor), expiresAt: expiresAt, expectedVersion: expectedVersion)
    }

    /// Sets a runtime override after checking it against the definition; persisted atomically and logged with
    /// `attribution`: a server records the person it verified, and the name the client claimed beside it.
    ///
    /// - Parameters:
    ///   - key: the definition's key.
    ///   - value: the value, checked with ``Definition/fit(_:)``.
    ///   - attribution: who makes the change, for the audit log; the override records its actor.
    ///   - expiresAt: when the override stops counting, as in `set(_:to:actor:expiresAt:expectedVersion:)`.
    ///   - expectedVersion: for compare-and-set, as in `set(_:to:actor:expiresAt:expectedVersion:)`.
    /// - Returns: the store's version after the write.
    /// - Throws: ``SetError``, as `set(_:to:actor:expiresAt:expectedVersion:)` does; nothing is written then.
    @discardableResult
    public func set(
        _ key: String, to value: Value, as attribution: Attribution, expiresAt: Date? = nil,
        expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        let definition = try definition(for: key)
        return try write(definition.fit(value), to: definition, by: attribution, expiresAt: expiresAt,
                         expectedVersion: expectedVersion).version
    }

    /// Sets a runtime override as ``set(_:to:as:expiresAt:expectedVersion:)`` does, and returns the version of the
    /// key's override after it, from the write itself, whoever writes the key next: what the admin API answers as
    /// the write's `ETag`. A write that changed nothing (the override already had that value and expiry) answers
    /// the version the override keeps.
    package func setOverride(
        _ key: String, to value: Value, as attribution: Attribution, expiresAt: Date?, expectedVersion: UInt64?
    ) throws(SetError) -> UInt64 {
        let definition = try definition(for: key)
        let write = try write(definition.fit(value), to: definition, by: attribution, expiresAt: expiresAt,
                              expectedVersion: expectedVersion)
        if case let entry?? = write.changed[key] { return entry.version }
        // Nothing changed: the override the store compared against, as this board has it.
        return engine.storedOverride(key)?.version ?? 0
    }

    /// Sets a runtime override of a typed value.
    @discardableResult
    public func set<T: FlagValue>(
        _ key: String, to value: T, actor: String, expiresAt: Date? = nil, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        try set(key, to: value.flagValue, actor: actor, expiresAt: expiresAt, expectedVersion: expectedVersion)
    }

    /// Sets a runtime override of a typed key, as `set(_:to:actor:expiresAt:expectedVersion:)` does for its name.
    @discardableResult
    public func set<T: FlagValue>(
        _ key: FlagKey<T>, to value: T, actor: String, expiresAt: Date? = nil, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        try set(key.key, to: value.flagValue, actor: actor, expiresAt: expiresAt, expectedVersion: expectedVersion)
    }

    /// Sets a runtime override from text (as typed on a command line), parsed by the key's type; for a variant
    /// flag the text may also name a variant. Logged as an unverified write of `actor`.
    @discardableResult
    public func set(
        _ key: String, text: String, actor: String, expiresAt: Date? = nil, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        try set(key, text: text, as: .unverified(actor), expiresAt: expiresAt, expectedVersion: expectedVersion)
    }

    /// Sets a runtime override from text, as `set(_:text:actor:expiresAt:expectedVersion:)` does, logged with
    /// `attribution`.
    @discardableResult
    public func set(
        _ key: String, text: String, as attribution: Attribution, expiresAt: Date? = nil,
        expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        let definition = try definition(for: key)
        return try write(definition.fit(text: text), to: definition, by: attribution, expiresAt: expiresAt,
                         expectedVersion: expectedVersion).version
    }

    /// Writes a value that ``Definition/fit(_:)`` accepted, or throws its problem. The override lives under the
    /// definition's key; copies under the keys it was renamed from are dropped so they cannot resurface.
    private func write(
        _ fit: Result<Value, ValueProblem>, to definition: Definition, by attribution: Attribution, expiresAt: Date?,
        expectedVersion: UInt64?
    ) throws(SetError) -> StoreWrite {
        let value: Value
        switch fit {
        case .success(let fitting): value = fitting
        case .failure(let problem): throw .invalidValue(key: definition.key,
                                                        problem.hinted(key: definition.key, type: definition.type))
        }
        let expiry = expiresAt.map { StoredOverride.time(secondsSinceEpoch: $0.timeIntervalSince1970) }
        let changes = [OverrideChange(key: definition.key, value: value, expiresAt: expiry)]
            + definition.renamedFrom.map { OverrideChange(key: $0, value: nil) }
        let condition = expectedVersion.map { WriteCondition(key: definition.key, version: $0) }
        return try write(changes, by: attribution, condition: condition)
    }

    /// Removes a key's runtime override (also an orphaned one, or one stored under a renamed key), logged as an
    /// unverified write of `actor`.
    ///
    /// - Parameters:
    ///   - key: the key whose override goes.
    ///   - actor: who makes the change, for the audit log.
    ///   - expectedVersion: for compare-and-set, as in `set(_:to:actor:expiresAt:expectedVersion:)`.
    /// - Returns: the store's version after the write.
    @discardableResult
    public func reset(_ key: String, actor: String, expectedVersion: UInt64? = nil) throws(SetError) -> UInt64 {
        try reset(key, as: .unverified(actor), expectedVersion: expectedVersion)
    }

    /// Removes a key's runtime override, as ``reset(_:actor:expectedVersion:)-(String,_,_)`` does, logged with
    /// `attribution`.
    ///
    /// - Parameters:
    ///   - key: the key whose override goes.
    ///   - attribution: who makes the change, for the audit log.
    ///   - expectedVersion: for compare-and-set, as in `set(_:to:actor:expiresAt:expectedVersion:)`.
    /// - Returns: the store's version after the write.
    @discardableResult
    public func reset(
        _ key: String, as attribution: Attribution, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        let snapshot = cell.snapshot
        let renamedFrom = snapshot.registry[key]?.renamedFrom ?? []
        guard snapshot.registry[key] != nil || snapshot.orphans[key] != nil else {
            throw .unknownKey(key, suggestions: snapshot.registry.suggestions(for: key))
        }
        let changes = ([key] + renamedFrom).map { OverrideChange(key: $0, value: nil) }
        let condition = expectedVersion.map { WriteCondition(key: key, version: $0) }
        return try write(changes, by: attribution, condition: condition).version
    }

    /// Removes the runtime override of a typed key, as ``reset(_:actor:expectedVersion:)-(String,_,_)`` does for
    /// its name.
    @discardableResult
    public func reset<T: FlagValue>(
        _ key: FlagKey<T>, actor: String, expectedVersion: UInt64? = nil
    ) throws(SetError) -> UInt64 {
        try reset(key.key, actor: actor, expectedVersion: expectedVersion)
    }

    /// Removes every runtime override that counts now, orphans included, logged as an unverified write of `actor`.
    @discardableResult
    public func resetAll(actor: String) throws(SetError) -> UInt64 {
        try resetAll(as: .unverified(actor))
    }

    /// Removes every runtime override that counts now, orphans included, logged with `attribution`. An expired
    /// override counts for no one: it is not logged as removed, and stays until its key is set again.
    @discardableResult
    public func resetAll(as attribution: Attribution) throws(SetError) -> UInt64 {
        try reset(keys: liveOverrideKeys(), as: attribution)
    }

    /// What `reset KEY` does in every face: removes the key's runtime override when it has one that counts now
    /// (under its key or a key it was renamed from, fitting its definition or not, or orphaned), and says whether
    /// it did; without one, nothing is written.
    ///
    /// - Throws: the store's error when it cannot be read (what it holds is then unknown, so nothing is said to be
    ///   absent), `.unknownKey` for a key neither defined nor orphaned, or the write's error.
    package func resetIfOverridden(_ key: String, actor: String) throws(SetError) -> Bool {
        let live = Set(try liveOverrideKeys())
        let snapshot = cell.snapshot
        guard ([key] + (snapshot.registry[key]?.renamedFrom ?? [])).contains(where: live.contains) else {
            guard snapshot.registry[key] != nil else {
                throw .unknownKey(key, suggestions: snapshot.registry.suggestions(for: key))
            }
            return false
        }
        try reset(key, actor: actor)
        return true
    }

    /// The keys whose runtime override counts now, orphans included, as `reset --all` in every face removes them
    /// (``reset(keys:actor:)``). An expired override counts for no one and stays until its key is set again.
    ///
    /// - Throws: the store's error when it cannot be read: what it holds is then unknown.
    package func liveOverrideKeys() throws(SetError) -> [String] {
        switch engine.liveStoredKeys(at: clock.now()) {
        case .success(let keys): keys.sorted()
        case .failure(let problem): throw .store(problem)
        }
    }

    /// Removes the runtime overrides of `keys` (``liveOverrideKeys()``, read before a confirmation) in one write
    /// logged as `actor`'s; with no keys, writes nothing.
    package func reset(keys: [String], actor: String) throws(SetError) {
        _ = try reset(keys: keys, as: .unverified(actor))
    }

    /// Removes the runtime overrides of `keys` in one write logged with `attribution`; with no keys, writes nothing.
    /// Returns the store's version after it.
    package func reset(keys: [String], as attribution: Attribution) throws(SetError) -> UInt64 {
        guard !keys.isEmpty else { return storeVersion }
        return try write(keys.map { OverrideChange(key: $0, value: nil) }, by: attribution, condition: nil).version
    }

    /// The stored override of a key (its value, who set it, when, and its version), when it has one that counts
    /// now by the board's clock. An expired override counts for no one: its key shows version 0 (no override) in
    /// every face, `If-Match: "0"` matches it, and the next write records no old value.
    public func storedOverride(_ key: String) -> StoredOverride? {
        guard let stored = engine.storedOverride(key), !stored.isExpired(at: clock.now()) else { return nil }
        return stored
    }

    /// The runtime store's version as this board last read or wrote it.
    public var storeVersion: UInt64 { engine.storeVersion }

    private func write(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(SetError) -> StoreWrite {
        do {
            return try engine.write(changes, by: attribution, condition: condition)
        } catch {
            throw .store(error)
        }
    }

    private func definition(for key: String) throws(SetError) -> Definition {
        let snapshot = cell.snapshot
        guard let definition = snapshot.registry[key] else {
            throw .unknownKey(key, suggestions: snapshot.registry.suggestions(for: key))
        }
        return definition
    }

    /// The last `limit` entries of the audit history, oldest first: the store's records, with an `expired` entry
    /// for each override that expired by the board's clock (``AuditRecord/history(of:limit:now:)``).
    ///
    /// - Throws: the store's error when its log cannot be read or is corrupt: an empty history would say that
    ///   nothing was ever changed.
    public func auditLog(limit: Int = .max) throws(StoreError) -> [AuditRecord] {
        try AuditRecord.history(of: store, limit: limit, now: clock.now())
    }

    // MARK: - Reloading and changes

    /// The board's health, in one place: the last failed reload's errors, the store's problem, and the warnings
    /// that do not stop the board (skipped override values, orphaned overrides, stale definitions, and the store's
    /// problem again, as a diagnostic). Each change of the errors or the store's problem is also announced to
    /// ``subscribe(_:)`` as ``BoardEvent/status(_:)``; the warnings change only with a publication.
    ///
    /// The warnings are gathered from every definition on each read; code that polls the health often (a probe)
    /// reads ``BoardStatus/isDegraded`` of a status it keeps from ``subscribe(_:)`` instead.
    public var status: BoardStatus { engine.status }

    /// The reload errors and the store's problem without the warnings: `/healthz` and the REPL's prompt.
    package var health: BoardStatus { engine.health }

    /// The warnings about overrides only: skipped file and env values, orphaned runtime overrides, override file
    /// warnings and a store that cannot be read. Definition warnings (stale flags) are `validate`'s business. (The
    /// command line prints them before each command.)
    package var overrideWarnings: [Diagnostic] { engine.overrideWarnings }

    /// The revision of the snapshot in use; it grows with every change.
    public var revision: UInt64 { cell.snapshot.revision }

    /// Reloads definitions, override files and the runtime store. When the definitions or an override file have
    /// errors, the last good ones stay in use and the errors are returned (and kept in ``status``).
    @discardableResult
    public func reload() -> LoadReport { engine.reload() }

    /// Re-reads the runtime store (another process may have changed it) and publishes what changed.
    public func refreshRuntime() { engine.refreshRuntime() }

    /// Checks once for changes made elsewhere: definition and override files (when watched), and the runtime
    /// store, loading an edit at once. The REPL calls it before each prompt; the board's own watcher instead loads
    /// an edit once the files have held still for one poll.
    public func checkForChanges() { engine.checkForChanges() }

    /// Stops watching for changes (a board stops by itself when it is released).
    public func stopWatching() { engine.stopWatching() }

    /// Every change to a resolved value from now on: from `set(_:to:actor:expiresAt:expectedVersion:)` and
    /// ``reset(_:actor:expectedVersion:)-(String,_,_)``, from reloads (a key whose targeting changed is reported
    /// even when its value for the empty context did not), and from other processes writing the same runtime store.
    /// Each access makes a new stream.
    public var changes: AsyncStream<ValueChange> {
        engine.publisher.stream { event in
            guard case .published(let publication) = event else { return [] }
            return publication.changes
        }
    }

    /// Calls `handler` with every event from now on, in order, until the subscription is cancelled or released:
    /// each publication (with what changed, and the values) and each change of the ``status``'s reload errors or
    /// store problem (with the warnings of that moment; warnings change only with a publication). It runs as
    /// ``FlagReader/observe(_:_:)`` says: on the thread that made the change, outside every board lock, before the
    /// write returns; it may read and write the board. ``changes`` is a stream built on it.
    public func subscribe(_ handler: @escaping @Sendable (BoardEvent) -> Void) -> ChangeSubscription {
        engine.publisher.subscribe(handler)
    }

    /// Calls `onChange` with the key's change after each publication that changed `key`, and after no other: a
    /// write costs what it changed, however many keys others observe. It runs as ``FlagReader/observe(_:_:)``
    /// says. ``updates(of:)`` and ``BoardModel`` are built on it.
    public func observe(_ key: String, _ onChange: @escaping @Sendable (ValueChange) -> Void) -> ChangeSubscription {
        engine.publisher.observe(key, onChange)
    }

    /// How many observers of single keys are registered (for tests of their release).
    package var observerCount: Int { engine.publisher.observerCount }
}

extension Board: FlagReader {}

extension Board: PreferenceStore {
    /// Sets a runtime override, as `set(_:to:actor:expiresAt:expectedVersion:)` does.
    public func setOverride(_ key: String, to value: Value, actor: String) throws {
        try set(key, to: value, actor: actor)
    }

    /// Removes the runtime override, as ``reset(_:actor:expectedVersion:)-(String,_,_)`` does.
    public func resetOverride(_ key: String, actor: String) throws {
        try reset(key, actor: actor)
    }
}
