import Locking
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A transport that records every request and response, around the real one.
final class RecordingTransport: RemoteTransport {
    let inner = HTTPClientTransport()
    let log = Locked<[(request: RemoteRequest, status: Int, etag: String?)]>([])

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let response = try await inner.send(request)
        log.withLock { $0.append((request, response.status, response.headers["etag"])) }
        return response
    }

    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        try await inner.stream(request)
    }

    var exchanges: [(request: RemoteRequest, status: Int, etag: String?)] { log.withLock { $0 } }
}

/// The 304 path end to end: the client sends its tag, an unchanged answer is a 304, and the tag changes with the
/// context and with the revision.
@Suite struct EntityTagTests {
    let project = TestProject(fixture: "flags")

    @Test func revalidatesWithTheTagAndTheTagFollowsContextAndRevision() async throws {
        let board = try project.board()
        let server = try await LiveServer(board: board)
        let transport = RecordingTransport()
        let remote = RemoteBoard(try testConfiguration(server.url, poll: .milliseconds(50)), transport: transport)
        try await waitUntil("a 304") { transport.exchanges.contains { $0.status == 304 } }
        let first = try #require(transport.exchanges.first)
        #expect(first.status == 200)
        let tag = try #require(first.etag)
        let revalidation = try #require(transport.exchanges.first { $0.status == 304 })
        #expect(revalidation.request.headers["If-None-Match"] == tag)

        remote.setContext(EvaluationContext(targetingKey: "u-2"))
        try await waitUntil("answered for the new context") {
            transport.exchanges.contains { $0.status == 200 && $0.etag != tag }
        }
        let contextTag = try #require(transport.exchanges.last { $0.status == 200 }?.etag)
        // The new context's first request does not send the old context's tag.
        let switched = try #require(transport.exchanges.first { $0.request.body != first.request.body })
        #expect(switched.request.headers["If-None-Match"] == nil)

        try board.set("app.greeting", to: "new revision", actor: "test")
        try await waitUntil("a new tag for the new revision") {
            transport.exchanges.contains { $0.status == 200 && $0.etag != tag && $0.etag != contextTag }
        }
        #expect(remote.string("app.greeting", default: "") == "new revision")
        await remote.stop()
        await server.stop()
    }
}
