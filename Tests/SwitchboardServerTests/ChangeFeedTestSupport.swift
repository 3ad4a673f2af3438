import NIOCore
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport

extension ChangeFeed.Frames {
    /// Opens the stream on a task of its own and takes its first frame there, so that a test can see the stream
    /// wait (``ChangeFeed/waitingCount``) and then wake it. The stream is released when the task ends.
    func firstFrameOnATask() -> Task<ByteBuffer?, Never> {
        Task { await makeAsyncIterator().next() }
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
