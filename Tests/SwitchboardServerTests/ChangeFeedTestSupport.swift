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

extension ChangeFeed {
    /// The frames of an event stream from `cursor` on, one by one (the routes take ``ChangeFeed/Stream``'s
    /// batches); the stream opens when the sequence is iterated.
    func frames(from cursor: Cursor, detailed: Bool = false) -> Frames {
        Frames(feed: self, cursor: cursor, detailed: detailed)
    }

    /// A stream of events from now on.
    func subscribe(detailed: Bool = false) -> Frames {
        frames(from: cursor(), detailed: detailed)
    }

    /// An event stream's frames: an async sequence whose iterator is the stream's place in the feed.
    struct Frames: AsyncSequence, Sendable {
        /// A frame: one or more whole server-sent events or comment lines, encoded once and shared by streams.
        typealias Element = ByteBuffer

        let feed: ChangeFeed
        let cursor: Cursor
        let detailed: Bool

        /// Opens the stream: it counts as open until the iterator is released.
        func makeAsyncIterator() -> Iterator {
            Iterator(stream: feed.stream(from: cursor, detailed: detailed))
        }

        /// One stream's frames one at a time: counted open from its creation until it is released.
        final class Iterator: AsyncIteratorProtocol {
            private let stream: ChangeFeed.Stream
            /// Frames taken from the feed and not yet returned, oldest last.
            private var ready: [ByteBuffer] = []

            init(stream: ChangeFeed.Stream) {
                self.stream = stream
            }

            /// The next frame, once there is one; `nil` once the feed has finished.
            func next() async -> ByteBuffer? {
                if ready.isEmpty {
                    guard let frames = await stream.next() else { return nil }
                    ready = frames.reversed()
                }
                return ready.popLast()
            }
        }
    }
}
