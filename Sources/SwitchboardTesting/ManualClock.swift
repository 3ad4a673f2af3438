public import Foundation
import Locking
import Switchboard

/// A clock that moves only when a test moves it: the times an ``InMemoryStore`` records come from it, so audit
/// records and `explain` output are the same on every run.
public final class ManualClock: Sendable {
    private let now: Locked<Date>

    /// A clock at a given time (by default 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        now = Locked(start)
    }

    /// The current time.
    public var date: Date { now.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by interval: Duration) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        now.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The current time in ISO 8601 UTC with milliseconds, as stores record it.
    public var timestamp: String {
        StoredOverride.time(secondsSinceEpoch: date.timeIntervalSince1970)
    }
}
