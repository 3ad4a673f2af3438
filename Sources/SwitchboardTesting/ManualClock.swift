public import Foundation
public import Switchboard
import Locking

/// A clock that moves only when a test moves it. The times an ``InMemoryStore`` records come from it, so audit
/// records and `explain` output are the same on every run; and a board given it as `BoardOptions.clock` serves
/// the schedule step and the overrides in force at its time, and wakes when ``advance(by:)`` passes a boundary.
///
/// ```swift
/// let clock = ManualClock()
/// let board = try Board(inputs: inputs, options: BoardOptions(pollInterval: nil, clock: clock))
/// clock.advance(by: .seconds(3600))   // a step an hour ahead is in force, and published, when this returns
/// ```
public final class ManualClock: BoardClock {
    private struct State {
        var now: Double
        var nextID = 0
        /// The pending wake-ups: when, and what to call.
        var timers: [Int: (time: Double, action: @Sendable () -> Void)] = [:]
    }

    private let state: Locked<State>

    /// A clock at a given time (by default 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Locked(State(now: start.timeIntervalSince1970))
    }

    /// The current time.
    public var date: Date { Date(timeIntervalSince1970: now()) }

    /// The current time in seconds since the Unix epoch.
    public func now() -> Double { state.withLock { $0.now } }

    /// Calls `action` when ``advance(by:)`` reaches `time`; when `time` has passed, at the next ``advance(by:)``
    /// (even by zero), never from inside this call, so the caller may hold its own locks.
    public func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.timers[id] = (max(time, state.now), action)
            return id
        }
        return ChangeSubscription { [weak self] in
            _ = self?.state.withLock { $0.timers.removeValue(forKey: id) }
        }
    }

    /// Moves the clock forward, and before returning calls every wake-up it passes, earliest first, each with the
    /// clock at that wake-up's time (a wake-up set while this runs, for a time it passes, is called too).
    public func advance(by interval: Duration) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let target = state.withLock { $0.now + seconds }
        while true {
            let due: (time: Double, action: @Sendable () -> Void)? = state.withLock { state in
                guard let (id, timer) = state.timers.filter({ $0.value.time <= target })
                    .min(by: { ($0.value.time, $0.key) < ($1.value.time, $1.key) })
                else { return nil }
                state.timers[id] = nil
                state.now = max(state.now, timer.time)
                return timer
            }
            guard let due else { break }
            // Called without the lock: the action reads the clock, and may set the next wake-up.
            due.action()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// The current time in ISO 8601 UTC with milliseconds, as stores record it.
    public var timestamp: String {
        StoredOverride.time(secondsSinceEpoch: now())
    }
}
