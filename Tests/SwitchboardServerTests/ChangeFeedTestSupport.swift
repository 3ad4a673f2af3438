import Locking
import NIOCore
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport

/// A stream's first frame, taken on a task of its own, so that a test can see the stream wait
/// (``ChangeFeed/waitingCount``) and then wake it. The stream is released when the task ends.
///
/// A test reads the frame with ``value(file:line:)``, which never awaits the task itself: a stream that is never
/// woken then fails the test at the deadline (or at its time limit) instead of hanging it.
final class FirstFrame: Sendable {
    /// `nil` until `next()` returns; then what it returned.
    private let taken: Locked<ByteBuffer??>
    /// The task that opens the stream and takes its first frame.
    private let task: Task<Void, Never>

    /// Opens a stream of `frames` on a new task and takes its first frame there.
    init(of frames: ChangeFeed.Frames) {
        let taken = Locked<ByteBuffer??>(nil)
        self.taken = taken
        task = Task {
            let frame = await frames.makeAsyncIterator().next()
            taken.withLock { $0 = .some(frame) }
        }
    }

    deinit {
        task.cancel()
    }

    /// Cancels the task that waits for the frame.
    func cancel() {
        task.cancel()
    }

    /// What `next()` returned, once it has; throws ``DeadlineExceeded`` when it does not return in time.
    func value(file: String = #fileID, line: Int = #line) async throws -> ByteBuffer? {
        try await waitUntil("the stream's next() to return", file: file, line: line) {
            taken.withLock { $0 != nil }
        }
        // The task has stored the frame, so it no longer holds the stream: wait for it to be released too.
        await task.value
        return taken.withLock { $0 ?? nil }
    }
}

extension ChangeFeed {
    /// Waits until `count` streams are waiting in `next()`: from then on, news must wake them.
    func waitUntilWaiting(_ count: Int, file: String = #fileID, line: Int = #line) async throws {
        try await waitUntil("\(count) event streams to wait", file: file, line: line) { waitingCount == count }
    }
}

/// The `data:` object of a console frame.
func consoleData(of frame: ByteBuffer?) throws -> [String: Value] {
    guard let text = frame.map({ String(buffer: $0) }),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) else { return [:] }
    return try Value(json: String(line.dropFirst("data: ".count))).objectValue ?? [:]
}
