import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
@testable import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// `GET /ofrep/v1/events` and the change feed behind it, driven by hand: the test decides when the feed looks.
@Suite struct EventStreamTests {
    let project = TestProject(fixture: "flags")

    /// Opens the event stream, runs `act` once the server has subscribed, then ends the feed so the response
    /// completes, and returns its text.
    private func streamText(
        server: FlagServer, headers: HTTPFields = [:], act: @escaping @Sendable () throws -> Void
    ) async throws -> (TestResponse, String) {
        try await server.makeApplication().test(.router) { client in
            async let response = client.send(.get, "/ofrep/v1/events", headers: headers)
            try await waitUntil("the event stream to subscribe") { server.feed.subscriberCount > 0 }
            try act()
            server.feed.finish()
            let finished = try await response
            return (finished, finished.text)
        }
    }

    @Test func announcesANewRevisionAsOneRefetchEvent() async throws {
        let board = try project.board()
        let server = FlagServer(board: board, logger: recordingLogger())
        let (response, text) = try await streamText(server: server) {
            try board.set("app.ratio", to: 2, actor: "test")
        }
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/event-stream")
        #expect(response.headers[.cacheControl] == "no-cache")
        let events = text.components(separatedBy: "\n\n").filter { $0.contains("data:") }
        #expect(events.count == 1)
        let lines = try #require(events.first).split(separator: "\n")
        #expect(lines[0] == "id: \(board.revision)")
        #expect(lines[1] == "event: message")
        #expect(lines[2].hasPrefix("data: "))
        let data = try Value(json: String(lines[2].dropFirst("data: ".count)))
        #expect(data.objectValue?["type"] == "refetchEvaluation")
        #expect(data.objectValue?["lastModified"]?.intValue != nil)
    }

    @Test func sendsTheMissedEventToAClientThatReconnects() async throws {
        let board = try project.board()
        try board.set("app.ratio", to: 2, actor: "test")
        let server = FlagServer(board: board, logger: recordingLogger())
        let stale = HTTPField.Name("Last-Event-ID")!
        let (_, missed) = try await streamText(server: server, headers: [stale: "1"]) {}
        #expect(missed.contains("id: \(board.revision)\nevent: message\n"))
        let (_, current) = try await streamText(server: FlagServer(board: board),
                                                headers: [stale: "\(board.revision)"]) {}
        #expect(!current.contains("data:"))
    }

    @Test func staysQuietWhenNothingChanged() async throws {
        let server = FlagServer(board: try project.board(), logger: recordingLogger())
        let (_, text) = try await streamText(server: server) {}
        #expect(text == ": switchboard OFREP event stream\nretry: 1000\n\n")
    }

    @Test func formatsHeartbeatsAsComments() {
        #expect(String(buffer: ChangeFeed.heartbeatFrame) == ": heartbeat\n\n")
        #expect(OFREPRoutes.frame(revision: 7, lastModified: 1_771_622_898) ==
            "id: 7\nevent: message\ndata: {\"type\":\"refetchEvaluation\",\"lastModified\":1771622898}\n\n")
    }

    @Test func refusesSubscribersAfterShutdown() async throws {
        let server = FlagServer(board: try project.board(), logger: recordingLogger())
        server.feed.finish()
        let iterator = server.feed.subscribe().makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(server.feed.subscriberCount == 0)
    }
}
