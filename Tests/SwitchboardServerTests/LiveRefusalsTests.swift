import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The refusals the router tests check, over real sockets through the connection handling (timeouts, cap): a
/// body over the limit gets 413, JSON nested too deep 400 with its position, a missing or wrong token 401.
@Suite struct LiveRefusalsTests {
    let project = TestProject(fixture: "flags")

    private func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(project, configure: { configuration in
            configuration.maxBodyBytes = 1024
            configuration.adminToken = AccessToken("admin-secret")
            // The connection handling is in place, with deadlines no loaded machine reaches between two requests
            // of one client (with 2 s, a keep-alive connection was closed under a full parallel test run).
            configuration.headerTimeout = .seconds(60)
            configuration.idleTimeout = .seconds(60)
        }, body)
    }

    @Test func refusesABodyOverTheLimitWith413() async throws {
        try await withServer { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                let padding = String(repeating: "x", count: 4096)
                let response = try await client.post("/ofrep/v1/evaluate/flags/app.new_flow",
                                                      body: .json(#"{"context":{"padding":"\#(padding)"}}"#))
                #expect(response.status == .contentTooLarge)
                // The connection still serves.
                #expect(try await client.get("/ping").status == .ok)
            }
            // A chunked body is cut off as soon as it passes the limit.
            let connection = try RawConnection(port: live.port)
            let chunk = String(repeating: "y", count: 2000)
            connection.send("POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n")
            #expect(try await connection.waitFor("HTTP/1.1 ").hasPrefix("HTTP/1.1 413 "))
            // With the same OFREP error as a declared length gets, not an empty body.
            let answer = try await connection.waitFor("larger than the limit of")
            #expect(answer.contains(#""errorCode":"GENERAL""#), "\(answer)")
        }
    }

    @Test func refusesJSONNestedTooDeep() async throws {
        try await withServer { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
                let response = try await client.post("/ofrep/v1/evaluate/flags/app.new_flow",
                                                      body: .json(#"{"context":{"a":\#(deep)}}"#))
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("nesting deeper than 256 levels"))
            }
        }
    }

    @Test func refusesMissingAndWrongTokens() async throws {
        try await withServer { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                let missing = try await client.get("/v1/flags")
                #expect(missing.status == .unauthorized)
                let wrong = try await client.get("/v1/flags", headers: [.authorization: "Bearer wrong"])
                #expect(wrong.status == .unauthorized)
                #expect(wrong.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
                let right = try await client.get("/v1/flags", headers: [.authorization: "Bearer admin-secret"])
                #expect(right.status == .ok)
            }
        }
    }
}
