import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// A console stream exactly ``ChangeFeed/consoleBacklog`` changes behind still gets each change's rows; one more
/// change behind, and it gets a single `refetch: true` change instead.
@Suite struct ConsoleBacklogBoundaryTests {
    let project = TestProject(fixture: "flags")

    /// The `data:` objects of the frames a console stream takes after `changes` changes made while it did not
    /// read. The feed finishes first, so a stream given nothing ends instead of waiting.
    private func framesAfter(changes: Int) async throws -> (documents: [[String: Value]], revisions: [UInt64]) {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let stream = server.feed.subscribe(detailed: true).makeAsyncIterator()
        var revisions: [UInt64] = []
        for value in 1...changes {
            try board.set("app.ratio", to: Double(value), actor: "test")
            revisions.append(board.revision)
        }
        server.feed.finish()
        var documents: [[String: Value]] = []
        while let frame = await stream.next() { documents.append(try consoleData(of: frame)) }
        return (documents, revisions)
    }

    @Test(.timeLimit(.minutes(3)))
    func exactlyTheKeptNumberBehindGetsRows() async throws {
        let (documents, revisions) = try await framesAfter(changes: ChangeFeed.consoleBacklog)
        #expect(documents.map { $0["revision"] } == revisions.map { .int(Int($0)) })
        #expect(documents.allSatisfy { $0["refetch"] == nil && $0["flags"] != nil })
    }

    @Test(.timeLimit(.minutes(3)))
    func oneMoreBehindGetsARefetch() async throws {
        let (documents, revisions) = try await framesAfter(changes: ChangeFeed.consoleBacklog + 1)
        #expect(documents.count == 1)
        #expect(documents.first?["refetch"] == true)
        #expect(documents.first?["revision"] == revisions.last.map { .int(Int($0)) })
    }
}
