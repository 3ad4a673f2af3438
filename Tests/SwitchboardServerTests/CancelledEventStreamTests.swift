import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// Cancelling the task of a stream that waits for news ends the stream: `next()` returns `nil`, and the feed keeps
/// neither its continuation nor its count.
@Suite struct CancelledEventStreamTests {
    let project = TestProject(fixture: "flags")

    @Test(.timeLimit(.minutes(3)), arguments: [false, true])
    func cancellingAWaitingStreamEndsIt(detailed: Bool) async throws {
        let server = FlagServer(board: try project.board(), logger: recordingLogger())
        let frame = FirstFrame(of: server.feed.subscribe(detailed: detailed))
        try await server.feed.waitUntilWaiting(1)
        #expect(server.feed.subscriberCount == 1)
        frame.cancel()
        #expect(try await frame.value() == nil)
        #expect(server.feed.waitingCount == 0)
        #expect(server.feed.subscriberCount == 0)
    }
}
