import Foundation

/// Where a board reads the time, and how it wakes at a moment: what drives schedule steps, override expiries,
/// `$flagd.timestamp` in targeting, and the timer that publishes a change at each of those boundaries.
///
/// The board uses ``SystemClock`` unless ``BoardOptions/clock`` names another; tests pass SwitchboardTesting's
/// `ManualClock`, whose `advance(by:)` fires the boundaries it passes before it returns.
public protocol BoardClock: Sendable {
    /// The time now, in seconds since the Unix epoch.
    func now() -> Double
    /// Calls `action` once, at `time` (seconds since the epoch) or as soon after it as the clock can; at once when
    /// `time` has passed. Cancelling the subscription before then means it is never called.
    func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription
}

/// The wall clock: `CLOCK_REALTIME`, and timers on a dispatch queue against the wall clock, so a timer set for
/// 09:00 fires at 09:00 even if the machine slept or its clock was set in between.
public struct SystemClock: BoardClock {
    /// The system clock.
    public init() {}

    /// The time now, in seconds since the Unix epoch.
    public func now() -> Double { Clock.secondsSinceEpoch() }

    /// Calls `action` at `time` on a global queue.
    public func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let delay = max(0, time - now())
        timer.schedule(wallDeadline: .now() + delay, leeway: .milliseconds(5))
        timer.setEventHandler(handler: action)
        timer.resume()
        // A dispatch source may be cancelled from any thread.
        nonisolated(unsafe) let source = timer
        return ChangeSubscription { source.cancel() }
    }
}

/// A clock stopped at one moment, for answers as of another time (`board.resolve(_:at:)`, `--at`): it never wakes.
struct FixedClock: BoardClock {
    let time: Double

    init(_ time: Double) {
        self.time = time
    }

    func now() -> Double { time }

    func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription {
        ChangeSubscription {}
    }
}
