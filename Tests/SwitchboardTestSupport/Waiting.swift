public import Foundation
import Locking
public import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The error a wait throws when its deadline passes first; a test that lets it propagate fails with it.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was awaited.
    public var what: String
    /// How long the wait lasted.
    public var timeout: Duration
    /// Where the wait was written.
    public var file: String
    /// The line of the wait.
    public var line: Int

    /// Describes a wait that ran out of time.
    public init(what: String, timeout: Duration, file: String, line: Int) {
        self.what = what
        self.timeout = timeout
        self.file = file
        self.line = line
    }

    /// A readable explanation for the test report.
    public var description: String { "\(file):\(line): waited \(timeout) for \(what), in vain" }
}

/// How long a test waits for something that normally takes milliseconds: long enough for a loaded CI machine,
/// short enough that a broken test fails instead of hanging.
public let generousDeadline: Duration = .seconds(60)

/// The time a wait has spent, counted as the process ran: the clock's advance between two checks, but at most
/// ``WaitBudget/longestStep`` each. A machine that stops the whole process for a minute (CI's VM paused, the
/// threads every task shares held by other work) would otherwise use up a wait in one step, and the check after
/// it would run before anything the test waits for had a chance to run too.
public struct WaitBudget: Sendable {
    /// The most one step between two checks counts for.
    public static let longestStep: Duration = .seconds(10)

    private let clock = ContinuousClock()
    private let timeout: Duration
    private var last: ContinuousClock.Instant
    private var spent: Duration = .zero

    /// A budget of `timeout`, starting now.
    public init(_ timeout: Duration) {
        self.timeout = timeout
        last = clock.now
    }

    /// Counts the time since the last call; returns whether the budget is used up.
    public mutating func isSpent() -> Bool {
        let now = clock.now
        spent += min(now - last, Self.longestStep)
        last = now
        return spent >= timeout
    }
}

/// Sleeps until `timeout` has passed as ``WaitBudget`` counts it, in steps of `interval`: a deadline that a paused
/// machine does not use up.
public func waitOut(_ timeout: Duration, interval: Duration = .milliseconds(100)) async throws {
    var budget = WaitBudget(timeout)
    while !budget.isSpent() { try await Task.sleep(for: interval) }
}

/// Checks `condition` every `interval` until it holds; throws ``DeadlineExceeded`` when `timeout` passes first
/// (counted by a ``WaitBudget``).
public func waitUntil(
    _ what: String, timeout: Duration = generousDeadline, interval: Duration = .milliseconds(10),
    file: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    var budget = WaitBudget(timeout)
    while true {
        if try await condition() { return }
        guard !budget.isSpent() else {
            throw DeadlineExceeded(what: what, timeout: timeout, file: file, line: line)
        }
        try await Task.sleep(for: interval)
    }
}

/// ``waitUntil(_:timeout:interval:file:line:_:)`` for synchronous code: blocks the thread between checks.
public func waitUntilBlocking(
    _ what: String, timeout: Duration = generousDeadline, interval: Duration = .milliseconds(10),
    file: String = #fileID, line: Int = #line, _ condition: () throws -> Bool
) throws {
    var budget = WaitBudget(timeout)
    while true {
        if try condition() { return }
        guard !budget.isSpent() else {
            throw DeadlineExceeded(what: what, timeout: timeout, file: file, line: line)
        }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18
            + Double(interval.components.seconds))
    }
}

/// Waits for `process` to exit; throws ``DeadlineExceeded`` (after killing it) when `timeout` passes first.
public func waitForExit(
    _ process: Process, timeout: Duration = generousDeadline, file: String = #fileID, line: Int = #line
) throws {
    do {
        try waitUntilBlocking("process \(process.processIdentifier) to exit", timeout: timeout,
                              file: file, line: line) { !process.isRunning }
    } catch {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw error
    }
    process.waitUntilExit()
}

/// Collects what an async sequence yields on a task of its own, so a test can wait for elements with a
/// deadline (``next(_:timeout:file:line:)``) instead of awaiting `next()` with none.
public final class AsyncCollector<Element: Sendable>: Sendable {
    private let received = Locked<[Element]>([])
    private let consumed = Locked(0)
    private let task: Task<Void, Never>

    /// Starts collecting `sequence`.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let received = received
        task = Task {
            do {
                for try await element in sequence { received.withLock { $0.append(element) } }
            } catch {}
        }
    }

    deinit {
        task.cancel()
    }

    /// Everything received so far.
    public var elements: [Element] { received.withLock { $0 } }

    /// The element after the last one `next` returned; throws ``DeadlineExceeded`` when none comes in time.
    public func next(
        _ what: String = "the next element", timeout: Duration = generousDeadline,
        file: String = #fileID, line: Int = #line
    ) async throws -> Element {
        let index = consumed.withLock { $0 }
        try await waitUntil(what, timeout: timeout, file: file, line: line) { elements.count > index }
        consumed.withLock { $0 = index + 1 }
        return elements[index]
    }
}

/// What stress tests count from many threads at once: torn reads, reads, and when to stop.
public final class StressCounters: Sendable {
    /// Reads that saw a mix of two states.
    public let torn = Atomic<Int>(0)
    /// Reads made.
    public let reads = Atomic<Int>(0)
    /// Set when the writer is done.
    public let done = Atomic<Bool>(false)

    /// Counters at zero.
    public init() {}
}
