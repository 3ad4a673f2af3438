import Locking
public import Switchboard

/// A `RuntimeStore` in memory, for tests: the same versions, compare-and-set and audit records as the file
/// store, with nothing on disk. Boards that share one instance see each other's writes at once, as replicas
/// sharing a database do.
public final class InMemoryStore: RuntimeStore {
    private struct State {
        var contents = StoreContents(entries: [:], version: 0)
        var audit: [AuditRecord] = []
        var deltas: [StoreDelta] = []
        var watchers: [UInt64: @Sendable () -> Void] = [:]
        var nextWatcher: UInt64 = 0
        var failure: StoreError?
    }

    private let state = Locked(State())
    /// The clock its records' times come from. A board made with `Board.testing(yaml:…)` on this store runs on it
    /// too, so its schedule steps and override expiries come when the clock reaches them.
    public let clock: ManualClock

    /// An empty store whose records take their times from `clock`.
    public init(clock: ManualClock = ManualClock()) {
        self.clock = clock
    }

    /// `memory`.
    public var kind: String { "memory" }
    /// `memory`.
    public var location: String { "memory" }

    /// Makes every read and write fail with `error` until it is set back to `nil`: an outage, for tests of how
    /// their code behaves when the store is unreachable.
    public func fail(with error: StoreError?) {
        state.withLock { $0.failure = error }
    }

    /// Every override with the store's version.
    public func read() throws(StoreError) -> StoreContents {
        let (contents, failure) = state.withLock { ($0.contents, $0.failure) }
        if let failure { throw failure }
        return contents
    }

    /// Applies changes all at once, or throws and changes nothing.
    public func apply(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        let time = clock.timestamp
        let result = state.withLock { state -> Result<(StoreWrite, [@Sendable () -> Void]), StoreError> in
            if let failure = state.failure { return .failure(failure) }
            if let condition {
                do throws(StoreError) {
                    try condition.check(against: state.contents.entries[condition.key], at: time)
                } catch {
                    return .failure(error)
                }
            }
            let plan = StoreWrite(planning: changes, by: attribution, time: time, version: state.contents.version + 1,
                                  current: { state.contents.entries[$0] })
            guard !plan.records.isEmpty else {
                return .success((StoreWrite(version: state.contents.version, changed: [:], records: []), []))
            }
            for (key, entry) in plan.changed { state.contents.entries[key] = entry }
            state.contents.version = plan.version
            state.audit += plan.records
            state.deltas.append(StoreDelta(version: plan.version, changed: plan.changed))
            return .success((plan, Array(state.watchers.values)))
        }
        let (write, watchers) = try result.get()
        for watcher in watchers { watcher() }
        return write
    }

    /// The changes after `version`, from the store's own record of every write.
    public func changes(since version: UInt64) throws(StoreError) -> StoreDelta? {
        let (deltas, current, failure) = state.withLock { state in
            (version < state.contents.version ? Array(state.deltas[Int(version)...]) : [],
             state.contents.version, state.failure)
        }
        if let failure { throw failure }
        guard version < current else { return StoreDelta(version: current, changed: [:]) }
        // Versions start at 1 and grow by one per write, so the write after `version` is at index `version`.
        return StoreDelta(merging: deltas, from: version)
    }

    /// Fills the empty store with an export.
    public func importing(_ export: StoreExport) throws(StoreError) {
        let watchers = try state.withLock { state throws(StoreError) -> [@Sendable () -> Void] in
            guard state.contents.entries.isEmpty, state.audit.isEmpty else {
                throw StoreError(message: "the in-memory store is not empty")
            }
            state.contents = export.contents
            state.audit = export.audit
            // Every key changed at the export's version; earlier versions have no deltas of their own.
            state.deltas = Array(repeating: StoreDelta(version: 0, changed: [:]), count: Int(export.contents.version))
            if export.contents.version > 0 {
                state.deltas[Int(export.contents.version) - 1] = StoreDelta(
                    version: export.contents.version, changed: export.contents.entries.mapValues { .some($0) })
            }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher() }
    }

    /// The last `limit` audit records, oldest first.
    public func auditLog(limit: Int) throws(StoreError) -> [AuditRecord] {
        state.withLock { Array($0.audit.suffix(limit)) }
    }

    /// Calls `handler` after every write, at once; the interval is not needed.
    public func watch(every interval: Duration, _ handler: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = handler
            return state.nextWatcher
        }
        return ChangeSubscription { [weak self] in _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) } }
    }
}
