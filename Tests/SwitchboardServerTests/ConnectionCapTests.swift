import Foundation
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `ServerConfiguration.maxConnections`: a connection past the cap is answered 503 with `Retry-After` and closed,
/// and counted; once connections go, new ones are served again.
@Suite struct ConnectionCapTests {
    let project = TestProject(fixture: "flags")

    @Test func refusesConnectionsPastTheCapUntilOthersGo() async throws {
        try await LiveServer.with(project, configure: { $0.maxConnections = 3 }) { live in
            // Three connections served and kept open.
            let held = try (0..<3).map { _ in try RawConnection(port: live.port) }
            for connection in held {
                connection.send(getRequest("/ping"))
                _ = try await connection.waitFor("pong\n")
            }
            #expect(live.metrics.contains("switchboard_http_connections 3.0\n"))

            let refused = try (0..<2).map { _ in try RawConnection(port: live.port) }
            for connection in refused {
                connection.send(getRequest("/ping"))
                let text = try await connection.waitUntilClosed()
                #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
                #expect(text.contains("\r\nRetry-After: 1\r\n"))
                #expect(text.contains("\r\nConnection: close\r\n"))
                #expect(!text.contains("pong"))
            }
            #expect(live.metrics.contains("switchboard_http_connections_refused_total 2\n"))
            #expect(live.metrics.contains("switchboard_http_connections 3.0\n"))

            // The held connections are still served.
            held[0].send(getRequest("/ping"))
            try await waitUntil("a second answer on a held connection") {
                held[0].received.components(separatedBy: "HTTP/1.1 200 OK").count == 3
            }

            for connection in held { connection.closeWrite() }
            for connection in held { _ = try await connection.waitUntilClosed() }
            try await waitUntil("a new connection to be served") {
                let connection = try RawConnection(port: live.port)
                connection.send(getRequest("/ping"))
                return try await connection.waitFor("HTTP/1.1 ").hasPrefix("HTTP/1.1 200 OK\r\n")
            }
        }
    }

    @Test func lowersTheCapToWhatTheOpenFilesLimitAllowsAndSaysSo() async throws {
        let logs = InMemoryLogHandler()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.maxConnections = .max
        let server = FlagServer(board: try project.board(), configuration: configuration,
                                logger: recordingLogger(logs))
        try await server.start()
        await server.stop()
        let limit = DescriptorLimit.current()
        let line = try #require(logs.entries.map(\.message.description).first { $0.hasPrefix("listening on") })
        #expect(line.contains("up to \(limit.connectionCap(for: .max)) connections, not \(Int.max): "))
        #expect(line.contains("(open files: \(limit))"))
    }
}
