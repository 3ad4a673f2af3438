import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// A console stream whose cursor was taken while no console stream was open — so the feed kept no rows of the
/// changes that came before it opened — gets a `refetch: true` change for them, not silence.
@Suite struct EarlyConsoleCursorTests {
    let project = TestProject(fixture: "flags")

    @Test(.timeLimit(.minutes(3)))
    func aChangeBeforeTheStreamOpensGivesARefetch() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let frames = server.feed.frames(from: server.feed.cursor(), detailed: true)
        try board.set("app.ratio", to: 2, actor: "test")
        let stream = frames.makeAsyncIterator()
        // Finished first, so that a stream given nothing ends instead of waiting.
        server.feed.finish()
        let document = try consoleData(of: await stream.next())
        #expect(document["refetch"] == true)
        #expect(document["revision"] == .int(Int(board.revision)))
        #expect(await stream.next() == nil)
    }
}
