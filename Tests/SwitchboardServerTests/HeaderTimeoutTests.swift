import Foundation
import HTTPTypes
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `ServerConfiguration.headerTimeout`: a request head that does not arrive in time closes its connection, with a
/// 408, however it is sent — not at all, half, or a byte at a time — while other clients are served.
@Suite struct HeaderTimeoutTests {
    let project = TestProject(fixture: "flags")

    private func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(project, configure: { $0.headerTimeout = .seconds(1) }, body)
    }

    @Test func closesStalledHeadsWhileServingANormalClient() async throws {
        // A timeout long enough that the normal client is served while the stalled ones are still open, however
        // loaded the machine.
        try await LiveServer.with(project, configure: { $0.headerTimeout = .seconds(10) }) { live in
            let stalled = try (0..<50).map { _ in try RawConnection(port: live.port) }
            for connection in stalled { connection.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nAcc") }
            let silent = try RawConnection(port: live.port)
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                // Served while the stalled ones wait, and after they are closed.
                var servedWhileStalled = false
                try await waitUntil("the stalled connections to be closed", interval: .milliseconds(20)) {
                    let response = try await client.get("/ping")
                    #expect(response.status == .ok)
                    if stalled.contains(where: { !$0.isClosed }) { servedWhileStalled = true }
                    return (stalled + [silent]).allSatisfy(\.isClosed)
                }
                #expect(servedWhileStalled)
                #expect(try await client.get("/ping").status == .ok)
            }
            for connection in stalled + [silent] {
                #expect(connection.received.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            }
            #expect(live.metrics.contains("switchboard_http_connections_closed_total{reason=\"header_timeout\"} 51\n"))
        }
    }

    @Test func closesAClientThatTricklesItsHead() async throws {
        try await withServer { live in
            let connection = try RawConnection(port: live.port)
            // A head of a thousand bytes, one every 50 ms: complete after 50 s, were it allowed to be.
            let head = "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + String(repeating: "a", count: 1000)
            var sent = 0
            for byte in head {
                guard !connection.isClosed, connection.send(String(byte)) else { break }
                sent += 1
                try await Task.sleep(for: .milliseconds(50))
            }
            let text = try await connection.waitUntilClosed()
            #expect(sent < head.count)
            #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(text.contains("Connection: close\r\n"))
        }
    }

    @Test func servesAHeadThatArrivesInPiecesInTime() async throws {
        try await LiveServer.with(project, configure: { $0.headerTimeout = .seconds(30) }) { live in
            let connection = try RawConnection(port: live.port)
            connection.send("GET /ping HTTP/1.1\r\n")
            try await Task.sleep(for: .milliseconds(100))
            connection.send("Host: 127.0.0.1\r\n\r\n")
            #expect(try await connection.waitFor("pong\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }
}
