import Locking
import Switchboard

/// What a bulk evaluation announces about the next moment values change by themselves (a schedule step, an
/// override's expiry): for each flag whose value for the request's context will change then, the flag's metadata
/// carries `switchboard.next_at` (RFC 3339) and `switchboard.next_value` (`null`: no value, the caller's default).
/// A `RemoteBoard` applies it at that moment even when it cannot reach the server; any OpenFeature client may read
/// it. Worked out once per revision: the snapshot at that moment, and the positions of the keys that may change.
final class UpcomingChanges: Sendable {
    /// The next change for one revision.
    struct Upcoming: Sendable {
        /// When, as RFC 3339 UTC.
        let at: String
        /// The snapshot as it will be then.
        let snapshot: Snapshot
        /// The positions (in the current snapshot's registry order) of the keys that may change, ascending.
        let positions: [Int]
    }

    private let cached = Locked<(revision: UInt64, upcoming: Upcoming?)?>(nil)

    /// The next change after the snapshot `current` of `board`, or `nil` when none is to come.
    func upcoming(after current: Snapshot, board: Board) -> Upcoming? {
        if let known = cached.withLock({ $0 }), known.revision == current.revision { return known.upcoming }
        var upcoming: Upcoming?
        if let (time, keys, snapshot) = board.upcomingChange() {
            let positions = keys.compactMap { current.registry.position(of: $0) }.sorted()
            if !positions.isEmpty {
                upcoming = Upcoming(at: StoredOverride.time(secondsSinceEpoch: time), snapshot: snapshot,
                                    positions: positions)
            }
        }
        cached.withLock { $0 = (current.revision, upcoming) }
        return upcoming
    }

    /// `resolution` with the announcement in its metadata when the value for `context` changes at the next moment.
    static func announcing(
        _ resolution: Resolution, key: String, context: EvaluationContext, upcoming: Upcoming
    ) -> Resolution {
        let later = upcoming.snapshot.resolve(key, context: context)
        guard later.value != resolution.value || (later.reason == .disabled) != (resolution.reason == .disabled) else { return resolution }
        var announced = resolution
        announced.metadata[UpcomingChangeMetadata.at] = .string(upcoming.at)
        announced.metadata[UpcomingChangeMetadata.value] = later.reason == .disabled ? .null : later.value ?? .null
        return announced
    }
}
