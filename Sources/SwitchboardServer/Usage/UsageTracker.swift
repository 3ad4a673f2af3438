import Locking
package import Metrics
package import Switchboard

/// What clients asked the server for, kept in memory since it started: per defined key the last evaluation and
/// how many there were, and per key no file defines how many lookups (at most
/// `UsageReport.unknownKeyLimit` such keys, also counted as `switchboard_unknown_key_lookups_total{key}`).
/// `GET /v1/usage` reports it, and `switchboard stale --server` reads that.
///
/// Cheap by construction: one lock per request (a bulk evaluation of a thousand flags takes it once), arrays
/// indexed by the key's position in the definitions in service, and the clock read once per request, outside
/// the lock. Counts follow a key across reloads of the definitions; a key that is no longer defined is dropped.
package final class UsageTracker: Sendable {
    private let factory: any MetricsFactory
    private let now: @Sendable () -> Double
    private let state: Locked<State>
    /// When counting started, in seconds since the epoch.
    let since: Double

    private struct State {
        /// The definitions the arrays are indexed by; `nil` before the first evaluation.
        var definitions: CompiledDefinitions?
        /// The revision of the snapshot they came from.
        var revision: UInt64 = 0
        /// The keys at each position of ``definitions``.
        var keys: [String] = []
        /// Each key's position, made only when an evaluation on older definitions needs it.
        var positions: [String: Int]?
        var evaluations: [Int] = []
        /// Seconds since the epoch of the last evaluation; 0 for none.
        var lastEvaluated: [Double] = []
        var unknown: [String: Unknown] = [:]
    }

    private struct Unknown {
        var lookups: Int
        let counter: Counter
    }

    /// Creates a tracker that counts from now, its unknown-key counter made by `factory`.
    ///
    /// - Parameter now: the clock, in seconds since the epoch (tests pass their own).
    package init(factory: any MetricsFactory,
                 now: @escaping @Sendable () -> Double = { Clock.secondsSinceEpoch() }) {
        self.factory = factory
        self.now = now
        since = now()
        state = Locked(State())
    }

    /// Counts one evaluation of each of `positions` (positions in `snapshot`'s definitions; repeats count again).
    package func evaluated(_ positions: some Sequence<Int>, on snapshot: Snapshot) {
        let time = now()
        state.withLock { state in
            if state.definitions != nil, state.definitions !== snapshot.definitions,
               snapshot.revision < state.revision {
                // A request that took its snapshot before a reload landed: count it by key against the newer
                // definitions rather than going back to the older ones, which would drop the keys added since.
                if state.positions == nil {
                    state.positions = Dictionary(state.keys.enumerated().map { ($1, $0) }) { first, _ in first }
                }
                let keys = snapshot.registry.definitions
                for position in positions {
                    guard let current = state.positions?[keys[position].key] else { continue }
                    state.evaluations[current] += 1
                    state.lastEvaluated[current] = time
                }
                return
            }
            Self.align(&state, to: snapshot)
            for position in positions {
                state.evaluations[position] += 1
                state.lastEvaluated[position] = time
            }
        }
    }

    /// Counts a lookup of a key no definition has. Once ``UsageReport/unknownKeyLimit`` keys are kept, lookups of
    /// others are not counted; keys longer than 256 bytes are never kept.
    package func lookedUp(unknown key: String) {
        guard key.utf8.count <= 256 else { return }
        let counter: Counter? = state.withLock { state in
            if state.unknown[key] != nil {
                state.unknown[key]!.lookups += 1
                return state.unknown[key]!.counter
            }
            guard state.unknown.count < UsageReport.unknownKeyLimit else { return nil }
            let counter = Counter(label: "switchboard_unknown_key_lookups_total", dimensions: [("key", key)],
                                  factory: factory)
            state.unknown[key] = Unknown(lookups: 1, counter: counter)
            return counter
        }
        counter?.increment()
    }

    /// The report of `GET /v1/usage`: every key `snapshot` defines, in declaration order, and the unknown keys,
    /// most looked-up first.
    package func report(on snapshot: Snapshot) -> UsageReport {
        let (keys, unknown) = state.withLock { state in
            Self.align(&state, to: snapshot)
            let keys = state.keys.indices.map { Self.keyUsage(at: $0, in: state) }
            return (keys, state.unknown.map { UsageReport.UnknownKey(key: $0.key, lookups: $0.value.lookups) })
        }
        let sorted = unknown.sorted { ($0.lookups, $1.key) > ($1.lookups, $0.key) }
        return UsageReport(since: sinceText, keys: keys, unknown: sorted)
    }

    /// One defined key's usage, as `/v1/usage` reports it: what the console's flag page shows.
    package func usage(of key: String, on snapshot: Snapshot) -> UsageReport.KeyUsage? {
        guard let position = snapshot.registry.position(of: key) else { return nil }
        return state.withLock { state in
            Self.align(&state, to: snapshot)
            return Self.keyUsage(at: position, in: state)
        }
    }

    /// The moment counting began, as `/v1/usage`'s `since` reports it.
    package var sinceText: String { StoredOverride.time(secondsSinceEpoch: since) }

    private static func keyUsage(at position: Int, in state: State) -> UsageReport.KeyUsage {
        let last = state.lastEvaluated[position]
        return UsageReport.KeyUsage(
            key: state.keys[position], lastEvaluated: last > 0 ? StoredOverride.time(secondsSinceEpoch: last) : nil,
            evaluations: state.evaluations[position])
    }

    /// Re-indexes the counts by `snapshot`'s definitions when they are not the ones counted against, carrying
    /// each key's counts over by name. (`report(on:)` reads the board's current snapshot, so it never goes back.)
    private static func align(_ state: inout State, to snapshot: Snapshot) {
        guard state.definitions !== snapshot.definitions else { return }
        let keys = snapshot.registry.keys
        var evaluations = [Int](repeating: 0, count: keys.count)
        var lastEvaluated = [Double](repeating: 0, count: keys.count)
        if !state.keys.isEmpty {
            var old: [String: Int] = [:]
            for (position, key) in state.keys.enumerated() { old[key] = position }
            for (position, key) in keys.enumerated() {
                guard let previous = old[key] else { continue }
                evaluations[position] = state.evaluations[previous]
                lastEvaluated[position] = state.lastEvaluated[previous]
            }
        }
        state.definitions = snapshot.definitions
        state.revision = snapshot.revision
        state.positions = nil
        state.keys = keys
        state.evaluations = evaluations
        state.lastEvaluated = lastEvaluated
    }
}
