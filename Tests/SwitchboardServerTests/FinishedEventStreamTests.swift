import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// When the feed finishes (graceful shutdown), a stream waiting for news ends: `next()` returns `nil`.
@Suite struct FinishedEventStreamTests {
    let project = TestProject(fixture: "flags")

    @Test(.timeLimit(.minutes(3)), arguments: [false, true])
    func finishingTheFeedEndsAWaitingStream(detailed: Bool) async throws {
        let server = FlagServer(board: try project.board(), logger: recordingLogger())
        let frame = FirstFrame(of: server.feed.subscribe(detailed: detailed))
        try await server.feed.waitUntilWaiting(1)
        server.feed.finish()
        #expect(try await frame.value() == nil)
        #expect(server.feed.waitingCount == 0)
    }
}
