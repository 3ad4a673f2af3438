import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The real server on an ephemeral loopback port, with a watching board, as `switchboard serve` runs it.
@Suite struct LiveServerTests {
    let project = TestProject(fixture: "flags")

    /// Starts a server on 127.0.0.1 port 0 over a board that polls as the command line's does, runs `body`, and
    /// stops the server whatever happens.
    private func withServer(
        _ body: @escaping @Sendable (FlagServer, TestClient, InMemoryLogHandler) async throws -> Void
    ) async throws {
        let logs = InMemoryLogHandler()
        let board = try project.board(polling: .milliseconds(200), logger: recordingLogger(logs))
        let server = FlagServer(board: board, configuration: ServerConfiguration(
            host: "127.0.0.1", port: 0, adminToken: AccessToken("admin-secret")), logger: recordingLogger(logs))
        let port = try await server.start()
        do {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                try await body(server, client, logs)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func evaluate(_ client: TestClient, _ key: String) async throws -> Value {
        let response = try await client.post("/ofrep/v1/evaluate/flags/\(key)", body: emptyContext)
        return try Value(jsonBytes: response.body.map { Array($0.readableBytesView) } ?? [])
    }

    @Test func startsOnAnEphemeralPortAndStops() async throws {
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        let server = FlagServer(board: try project.board(), configuration: configuration, logger: recordingLogger())
        #expect(server.port == nil)
        let port = try await server.start()
        #expect(port > 0)
        #expect(server.port == port)
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let response = try await client.get("/ping")
            #expect(response.status == .ok)
        }
        await server.stop()
        #expect(server.port == nil)
        await #expect(throws: (any Error).self) {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                _ = try await client.get("/ping")
            }
        }
    }

    @Test func refusesToStartOnAPortInUse() async throws {
        let first = FlagServer(board: try project.board(), configuration: ServerConfiguration(port: 0),
                               logger: recordingLogger())
        let port = try await first.start()
        let second = FlagServer(board: try project.board(), configuration: ServerConfiguration(port: port),
                                logger: recordingLogger())
        await #expect(throws: (any Error).self) { try await second.start() }
        await second.stop()
        await first.stop()
    }

    @Test func servesARuntimeChangeFromAnotherProcess() async throws {
        try await withServer { _, client, _ in
            #expect(try await evaluate(client, "app.upload.max_mb").objectValue?["value"] == 25)
            // What `switchboard set` in another terminal does: its own board on the same store.
            let other = try project.board()
            try other.set("app.upload.max_mb", to: 100, actor: "other-terminal")
            try await waitUntil("the server to serve the override") {
                try await evaluate(client, "app.upload.max_mb").objectValue?["value"] == 100
            }
            try other.reset("app.upload.max_mb", actor: "other-terminal")
            try await waitUntil("the server to serve the default again") {
                try await evaluate(client, "app.upload.max_mb").objectValue?["value"] == 25
            }
        }
    }

    @Test func announcesAChangeOnTheEventStream() async throws {
        try await withServer { server, _, _ in
            let port = try #require(server.port)
            let stream = try RawConnection(port: port)
            stream.send(RawConnection.eventStreamRequest)
            #expect(try await stream.waitFor("retry: 1000").contains("text/event-stream"))
            try project.board().set("app.new_flow", to: true, actor: "other-terminal")
            let text = try await stream.waitFor("refetchEvaluation")
            #expect(text.contains("\"type\":\"refetchEvaluation\""))
        }
    }

    @Test func stopsWithAnEventStreamOpen() async throws {
        let server = FlagServer(board: try project.board(polling: .milliseconds(200)),
                                configuration: ServerConfiguration(port: 0), logger: recordingLogger())
        let stream = try RawConnection(port: try await server.start())
        stream.send(RawConnection.eventStreamRequest)
        #expect(try await stream.waitFor("retry: 1000").contains("text/event-stream"))
        await server.stop()
        // The response ended properly: chunked encoding's last chunk, not a dropped connection.
        #expect(try await stream.waitFor("0\r\n\r\n").hasSuffix("0\r\n\r\n"))
    }

    @Test func keepsServingAndReportsDegradedOnAnInvalidEdit() async throws {
        try await withServer { _, client, logs in
            func health() async throws -> [String: Value] {
                let response = try await client.get("/healthz")
                return try Value(jsonBytes: Array(response.body!.readableBytesView)).objectValue ?? [:]
            }
            let good = try #require(project.read("flags/app.yaml"))
            project.write("flags/app.yaml", good.replacingOccurrences(of: "default: 25", with: "default: many"))
            try await waitUntil("the health check to agree") { try await health()["status"] == "degraded" }
            let degraded = try await health()
            #expect(degraded["lastReloadError"]?.stringValue?.contains("app.yaml") == true)
            #expect(try await evaluate(client, "app.upload.max_mb").objectValue?["value"] == 25)
            func errors() -> [String] { logs.entries.filter { $0.level == .error }.map(\.message.description) }
            try await waitUntil("two logged reload errors") { errors().count >= 2 }
            #expect(errors().first?.hasPrefix("definitions changed but do not validate: 1 error") == true)
            #expect(errors().contains { $0.contains("app.yaml:") && $0.contains("app.upload.max_mb") })

            project.write("flags/app.yaml", good.replacingOccurrences(of: "default: 25", with: "default: 40"))
            try await waitUntil("the health check to agree") { try await health()["status"] == "ok" }
            #expect(try await evaluate(client, "app.upload.max_mb").objectValue?["value"] == 40)
        }
    }

    @Test func guardsTheAdminAPIOverTheWire() async throws {
        try await withServer { _, client, _ in
            let refused = try await client.put("/v1/overrides/app.ratio", body: .json(#"{"value": 2}"#))
            #expect(refused.status == .unauthorized)
            let accepted = try await client.put("/v1/overrides/app.ratio",
                                                headers: [.authorization: "Bearer admin-secret"],
                                                body: .json(#"{"value": 2}"#))
            #expect(accepted.status == .ok)
            #expect(try await evaluate(client, "app.ratio").objectValue?["value"] == 2.0)
        }
    }
}
