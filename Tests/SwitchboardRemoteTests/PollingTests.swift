import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// Against the minimal OFREP server (no event stream, no ETag) the board polls, authenticates with an API key,
/// and passes per-flag errors on to `details`.
@Suite struct PollingTests {
    @Test func pollsAServerWithoutAnEventStream() async throws {
        let server = try await MinimalOFREPServer(apiKey: "k-123")
        server.serve([("color", "blue"), ("limit", 5)], failures: [("gone", "FLAG_NOT_FOUND")])
        let remote = RemoteBoard(try testConfiguration(server.url, credentials: .apiKey("k-123"),
                                                       poll: .milliseconds(50)))
        try await waitUntil("live") { remote.status == .live }
        #expect(remote.string("color", default: "") == "blue")
        #expect(remote.int("limit", default: 0) == 5)
        #expect(server.requests.allSatisfy { $0["x-api-key"] == "k-123" && $0["if-none-match"] == nil })

        server.serve([("color", "green"), ("limit", 5)])
        try await waitUntil("the next poll brought the change") { remote.string("color", default: "") == "green" }
        await remote.stop()
        await server.stop()
    }

    @Test func perFlagErrorsReachDetails() async throws {
        let server = try await MinimalOFREPServer()
        server.serve([("limit", 5)], failures: [("gone", "FLAG_NOT_FOUND"), ("broken", "PARSE_ERROR")])
        let remote = RemoteBoard(try testConfiguration(server.url))
        try await waitUntil("live") { remote.status == .live }
        #expect(remote.details("gone", default: 1).errorCode == .flagNotFound)
        #expect(remote.details("broken", default: 1).errorCode == .parseError)
        #expect(remote.details("broken", default: 1).errorMessage == "no such flag")
        let mismatch = remote.details("limit", default: "text")
        #expect(mismatch.errorCode == .typeMismatch)
        #expect(mismatch.value == "text")
        #expect(remote.details("absent", default: false).errorCode == .flagNotFound)
        await remote.stop()
        await server.stop()
    }
}
