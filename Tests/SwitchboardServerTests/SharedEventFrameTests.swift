import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// The change feed encodes each event once: every stream of a kind writes the same bytes, not a copy of its own.
@Suite struct SharedEventFrameTests {
    let project = TestProject(fixture: "flags")

    /// Where a frame's bytes are.
    private func address(of frame: ByteBuffer?) -> UnsafeRawPointer? {
        frame?.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func everyOFREPStreamWritesTheSameBytesOfAChange() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let first = server.feed.subscribe().makeAsyncIterator()
        let second = server.feed.subscribe().makeAsyncIterator()
        try board.set("app.ratio", to: 2, actor: "test")
        let one = await first.next()
        let other = await second.next()
        #expect(one.map { String(buffer: $0) }?.hasPrefix("id: \(board.revision)\n") == true)
        #expect(one == other)
        #expect(address(of: one) != nil)
        #expect(address(of: one) == address(of: other))
    }

    @Test func everyConsoleStreamWritesTheSameBytesOfAChange() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let first = server.feed.subscribe(detailed: true).makeAsyncIterator()
        let second = server.feed.subscribe(detailed: true).makeAsyncIterator()
        try board.set("app.ratio", to: 2, actor: "test")
        let one = await first.next()
        let other = await second.next()
        #expect(one.map { String(buffer: $0) }?.hasPrefix("event: change\ndata: ") == true)
        #expect(one.map { String(buffer: $0) }?.contains("\"app.ratio\"") == true)
        #expect(address(of: one) == address(of: other))
    }
}
