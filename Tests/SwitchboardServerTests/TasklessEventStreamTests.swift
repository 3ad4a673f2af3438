#if canImport(Glibc)
import Foundation
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// An event stream on a connection that opens with one is served by the connection itself, without a task
/// (`EventStreamConnectionHandler`); one asked for after another request is written by Hummingbird's task. The
/// router decides both, so a client cannot tell them apart.
@Suite struct TasklessEventStreamTests {
    let project = TestProject(fixture: "flags")

    /// The body of a response: what follows the head.
    private func body(_ text: String) -> Substring {
        text.range(of: "\r\n\r\n").map { text[$0.upperBound...] } ?? ""
    }

    /// What a connection received after the `/ping` it asked for first.
    private func afterPing(_ text: String) -> String {
        text.range(of: "pong\n").map { String(text[$0.upperBound...]) } ?? ""
    }

    /// The head of a response without its `Date`, which changes with the second.
    private func head(_ text: String) -> [Substring] {
        let head = text.range(of: "\r\n\r\n").map { text[..<$0.lowerBound] } ?? ""
        return head.split(separator: "\r\n").filter { !$0.lowercased().hasPrefix("date:") }
    }

    @Test func aFreshConnectionAndAReusedOneGetTheSameStream() async throws {
        try await LiveServer.with(project, configure: { _ in }) { live in
            let fresh = try RawConnection(port: live.port)
            fresh.send(RawConnection.eventStreamRequest)
            let reused = try RawConnection(port: live.port)
            reused.send(getRequest("/ping"))
            _ = try await reused.waitFor("pong\n")
            reused.send(RawConnection.eventStreamRequest)
            _ = try await fresh.waitFor("retry: 1000\n\n")
            _ = try await reused.waitFor("retry: 1000\n\n")
            try live.board.set("app.ratio", to: 2, actor: "test")
            let freshText = try await fresh.waitFor("refetchEvaluation\",\"lastModified\":")
            _ = try await reused.waitFor("refetchEvaluation\",\"lastModified\":")
            try await waitUntil("both events whole") {
                fresh.received.hasSuffix("}\n\n\r\n") && reused.received.hasSuffix("}\n\n\r\n")
            }
            let reusedStream = afterPing(reused.received)
            #expect(head(freshText) == head(reusedStream))
            #expect(fresh.received.contains("\r\nDate: "))
            #expect(body(fresh.received) == body(reusedStream))
            #expect(body(fresh.received).contains("id: \(live.board.revision)\nevent: message\n"))
        }
    }

    @Test func aStreamLeavesTheFeedAsSoonAsItsClientGoesAway() async throws {
        // No heartbeat in the test's time: only the connection's end can close the stream.
        try await LiveServer.with(project, configure: { $0.heartbeatInterval = .seconds(3600) }) { live in
            var stream: RawConnection? = try RawConnection(port: live.port)
            stream?.send(RawConnection.eventStreamRequest)
            _ = try await stream?.waitFor("retry: 1000\n\n")
            try await waitUntil("the stream to wait for news") { live.server.feed.waitingCount == 1 }
            #expect(live.server.feed.subscriberCount == 1)
            stream = nil
            try await waitUntil("the stream to leave the feed") { live.server.feed.subscriberCount == 0 }
            #expect(live.server.feed.waitingCount == 0)
        }
    }

    @Test func aRefusedStreamGetsTheRoutersAnswerAndTheConnectionCloses() async throws {
        try await LiveServer.with(project, configure: { $0.readToken = AccessToken("read-secret") }) { live in
            let fresh = try RawConnection(port: live.port)
            fresh.send(RawConnection.eventStreamRequest)
            let refused = try await fresh.waitUntilClosed()
            #expect(refused.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            #expect(refused.contains("\r\nWWW-Authenticate: "))
            #expect(refused.lowercased().contains("\r\nconnection: close\r\n"))
            // The same request on a connection that asked for something else first: the route's own answer.
            let reused = try RawConnection(port: live.port)
            reused.send(getRequest("/ping"))
            _ = try await reused.waitFor("pong\n")
            reused.send(RawConnection.eventStreamRequest)
            try await waitUntil("the refusal's body") { body(afterPing(reused.received)).hasSuffix("}") }
            let routed = afterPing(reused.received)
            #expect(routed.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            #expect(body(refused) == body(routed))
            #expect(!reused.isClosed)
        }
    }

    @Test func aClientThatClosesItsSideAfterAskingStillGetsARefusal() async throws {
        try await LiveServer.with(project, configure: { $0.readToken = AccessToken("read-secret") }) { live in
            let connection = try RawConnection(port: live.port)
            connection.send(RawConnection.eventStreamRequest)
            connection.closeWrite()
            let text = try await connection.waitUntilClosed()
            #expect(text.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            try await waitUntil("no stream left") { live.server.feed.subscriberCount == 0 }
        }
    }

    @Test func aConsoleStreamCarriesTheConsoleHeadersAndTheStatusFirst() async throws {
        try await LiveServer.with(project, configure: { _ in }) { live in
            let console = try RawConnection(port: live.port)
            console.send(getRequest("/console/api/events"))
            let text = try await console.waitFor("event: status\ndata: ")
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("\r\nContent-Security-Policy: \(ConsoleHeaders.contentSecurityPolicy)\r\n"))
            #expect(text.contains("\r\nCache-Control: no-store\r\n"))
            #expect(body(text).contains(": switchboard console events\nretry: 1000\n\n"))
        }
    }

    @Test func aMalformedFirstRequestGets400AndTheConnectionCloses() async throws {
        try await LiveServer.with(project, configure: { _ in }) { live in
            let connection = try RawConnection(port: live.port)
            connection.send("NOT HTTP AT ALL\r\n\r\n")
            let text = try await connection.waitUntilClosed()
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            // The server goes on serving.
            let next = try RawConnection(port: live.port)
            next.send(getRequest("/ping"))
            #expect(try await next.waitFor("pong\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func writesTheDateAsHTTPDoes() {
        #expect(EventStreamConnectionHandler.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(EventStreamConnectionHandler.httpDate(1_798_761_599) == "Thu, 31 Dec 2026 23:59:59 GMT")
    }
}
#endif
