import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// A stream that reads slowly holds no backlog: it gets the latest state when it looks again (an OFREP stream one
/// refetch of the last revision, a console the changes the feed still keeps, else a refetch), and it counts as
/// open only while it exists.
@Suite struct SlowEventReaderTests {
    let project = TestProject(fixture: "flags")

    /// The `data:` object of a console frame.
    private func data(of frame: ByteBuffer?) throws -> [String: Value] {
        let text = try #require(frame.map { String(buffer: $0) })
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") })
        return try Value(json: String(line.dropFirst("data: ".count))).objectValue ?? [:]
    }

    @Test func anOFREPStreamThatFellBehindGetsTheLastRevisionOnce() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let stream = server.feed.subscribe().makeAsyncIterator()
        for value in 1...50 { try board.set("app.ratio", to: Double(value), actor: "test") }
        let frame = try #require(await stream.next())
        #expect(String(buffer: frame).hasPrefix("id: \(board.revision)\nevent: message\n"))
        server.feed.finish()
        #expect(await stream.next() == nil)
    }

    @Test func aConsoleThatFellBehindGetsTheChangesStillKept() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let stream = server.feed.subscribe(detailed: true).makeAsyncIterator()
        var written: [Value?] = []
        for value in 1...3 {
            try board.set("app.ratio", to: Double(value), actor: "test")
            written.append(.int(Int(board.revision)))
        }
        server.feed.finish()
        var revisions: [Value?] = []
        while let frame = await stream.next() { revisions.append(try data(of: frame)["revision"]) }
        #expect(revisions == written)
    }

    @Test func aConsoleTooFarBehindGetsARefetch() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let stream = server.feed.subscribe(detailed: true).makeAsyncIterator()
        for value in 1...(ChangeFeed.consoleBacklog + 5) {
            try board.set("app.ratio", to: Double(value), actor: "test")
        }
        let document = try data(of: await stream.next())
        #expect(document["refetch"] == true)
        #expect(document["revision"] == .int(Int(board.revision)))
        server.feed.finish()
        #expect(await stream.next() == nil)
    }

    @Test func aStreamCountsAsOpenWhileItExists() async throws {
        let server = FlagServer(board: try project.board(), logger: recordingLogger())
        var stream: ChangeFeed.Frames.Iterator? = server.feed.subscribe().makeAsyncIterator()
        withExtendedLifetime(stream) {
            #expect(server.feed.subscriberCount == 1)
        }
        stream = nil
        #expect(server.feed.subscriberCount == 0)
    }
}
