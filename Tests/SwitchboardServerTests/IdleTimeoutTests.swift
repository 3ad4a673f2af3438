import Foundation
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `ServerConfiguration.idleTimeout`: a keep-alive connection with nothing in progress is closed, and so is one
/// whose request body stalls; an event stream, a response in progress, is not.
@Suite struct IdleTimeoutTests {
    let project = TestProject(fixture: "flags")

    private func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(project, configure: { configuration in
            configuration.idleTimeout = .seconds(1)
            // No heartbeat during the test: the event stream sends nothing unless something changes.
            configuration.heartbeatInterval = .seconds(3600)
        }, body)
    }

    @Test func closesAnIdleKeepAliveConnection() async throws {
        try await withServer { live in
            let connection = try RawConnection(port: live.port)
            connection.send(getRequest("/ping"))
            #expect(try await connection.waitFor("pong\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
            let text = try await connection.waitUntilClosed()
            // Closed without a word: an idle connection has no request to answer.
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2)
            #expect(live.metrics.contains("switchboard_http_connections_closed_total{reason=\"idle_timeout\"} 1\n"))
        }
    }

    @Test func keepsAnEventStreamOpenPastTheIdleTimeout() async throws {
        try await withServer { live in
            let stream = try RawConnection(port: live.port)
            stream.send(RawConnection.eventStreamRequest)
            _ = try await stream.waitFor("retry: 1000\n\n")
            // A connection left idle after the stream opened: once it is closed, the stream has been quiet for
            // longer than the idle timeout.
            let idle = try RawConnection(port: live.port)
            idle.send(getRequest("/ping"))
            _ = try await idle.waitFor("pong\n")
            _ = try await idle.waitUntilClosed()
            #expect(!stream.isClosed)
            try live.board.set("app.new_flow", to: true, actor: "test")
            #expect(try await stream.waitFor("refetchEvaluation").contains("id: "))
            #expect(!stream.isClosed)
        }
    }

    @Test func closesAConnectionWhoseBodyStalls() async throws {
        try await withServer { live in
            let connection = try RawConnection(port: live.port)
            connection.send("POST /ofrep/v1/evaluate/flags/app.new_flow HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"context\":")
            _ = try await connection.waitUntilClosed()
            #expect(live.metrics.contains("switchboard_http_connections_closed_total{reason=\"idle_timeout\"} 1\n"))
        }
    }
}
