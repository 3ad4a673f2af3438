import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// A change of the board's status alone (a reload that finds a broken file) is news only to console streams: it
/// wakes a waiting console stream with a status frame and leaves a waiting OFREP stream waiting.
@Suite struct StatusEventWakingTests {
    let project = TestProject(fixture: "flags")

    @Test(.timeLimit(.minutes(3)))
    func aStatusEventWakesAConsoleStreamButNotAnOFREPOne() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let ofrep = FirstFrame(of: server.feed.subscribe())
        let console = FirstFrame(of: server.feed.subscribe(detailed: true))
        try await server.feed.waitUntilWaiting(2)
        let revision = board.revision
        project.write("flags/app.yaml", "namespace: app\nflags: {broken: {type: integer, default: 1}}\n")
        board.reload()
        #expect(board.revision == revision)

        let status = try #require(try await console.value())
        #expect(String(buffer: status).hasPrefix("event: status\n"))
        #expect(try consoleData(of: status)["status"] == "degraded")
        // The console's waiter was taken before it was resumed; the OFREP stream's is still there.
        #expect(server.feed.waitingCount == 1)

        server.feed.finish()
        #expect(try await ofrep.value() == nil)
    }
}
