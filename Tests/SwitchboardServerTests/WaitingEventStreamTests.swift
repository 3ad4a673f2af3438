import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// A stream that waits in `next()` for news — its continuation stored — is woken by the next change and returns
/// that change's frame.
@Suite struct WaitingEventStreamTests {
    let project = TestProject(fixture: "flags")

    @Test(.timeLimit(.minutes(3)), arguments: [false, true])
    func aWaitingStreamIsWokenByAChange(detailed: Bool) async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let frame = FirstFrame(of: server.feed.subscribe(detailed: detailed))
        try await server.feed.waitUntilWaiting(1)
        try board.set("app.ratio", to: 2, actor: "test")
        let text = try #require(try await frame.value().map { String(buffer: $0) })
        if detailed {
            #expect(text.hasPrefix("event: change\n"))
            let data = try consoleData(of: ByteBuffer(string: text))
            #expect(data["revision"] == .int(Int(board.revision)))
            #expect(data["refetch"] == nil)
        } else {
            #expect(text.hasPrefix("id: \(board.revision)\nevent: message\n"))
        }
        #expect(server.feed.waitingCount == 0)
    }
}
