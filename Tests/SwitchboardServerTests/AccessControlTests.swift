import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// Who gets through: the admin token on `/v1`, the optional read token on `/ofrep/v1`.
@Suite struct AccessControlTests {
    let project = TestProject(fixture: "flags")

    private func withClient(
        admin: String? = nil, read: String? = nil,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = ServerConfiguration(adminToken: admin.flatMap(AccessToken.init),
                                                readToken: read.flatMap(AccessToken.init),
                                                prometheus: PrometheusCollectorRegistry())
        let server = FlagServer(board: try project.board(), configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private func adminStatus(
        _ client: any TestClientProtocol, _ authorization: String?, method: HTTPRequest.Method = .get,
        uri: String = "/v1/flags", body: ByteBuffer? = nil
    ) async throws -> HTTPResponse.Status {
        let headers: HTTPFields = authorization.map { [.authorization: $0] } ?? [:]
        return try await client.send(method, uri, headers: headers, body: body).status
    }

    @Test func refusesEveryAdminRouteWhenNoTokenIsConfigured() async throws {
        try await withClient { client in
            for (method, uri) in [(HTTPRequest.Method.get, "/v1/flags"), (.get, "/v1/flags/app.ratio"),
                                  (.put, "/v1/overrides/app.ratio"), (.delete, "/v1/overrides/app.ratio"),
                                  (.get, "/v1/audit")] {
                let response = try await client.send(method, uri, headers: [.authorization: "Bearer x"],
                                                        body: .json(#"{"value":2}"#))
                #expect(response.status == .forbidden, "\(method) \(uri)")
                #expect(try response.json.objectValue?["error"] ==
                    "the admin API is off: no admin token is configured")
            }
        }
        #expect(try project.board().resolve("app.ratio").layer == .default)
    }

    @Test func needsTheAdminTokenAsABearerToken() async throws {
        try await withClient(admin: "admin-secret") { client in
            #expect(try await adminStatus(client, nil) == .unauthorized)
            #expect(try await adminStatus(client, "Basic YWRtaW46c2VjcmV0") == .unauthorized)
            #expect(try await adminStatus(client, "Bearer wrong") == .unauthorized)
            #expect(try await adminStatus(client, "Bearer admin-secre") == .unauthorized)
            #expect(try await adminStatus(client, "Bearer admin-secret") == .ok)
            #expect(try await adminStatus(client, "bearer admin-secret") == .ok)
            let refused = try await client.send(.get, "/v1/flags")
            #expect(refused.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test func refusesAWriteWithAWrongTokenAndWritesNothing() async throws {
        try await withClient(admin: "admin-secret") { client in
            let status = try await adminStatus(client, "Bearer wrong", method: .put, uri: "/v1/overrides/app.ratio",
                                               body: .json(#"{"value":2}"#))
            #expect(status == .unauthorized)
        }
        #expect(project.read(".switchboard/overrides.json") == nil)
    }

    @Test func leavesOFREPOpenWithoutAReadToken() async throws {
        try await withClient(admin: "admin-secret") { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio",
                                                    body: emptyContext)
            #expect(response.status == .ok)
        }
    }

    @Test func needsTheReadTokenForOFREPWhenOneIsConfigured() async throws {
        try await withClient(admin: "admin-secret", read: "read-secret") { client in
            func status(_ headers: HTTPFields, uri: String = "/ofrep/v1/evaluate/flags/app.ratio")
                async throws -> HTTPResponse.Status
            {
                try await client.send(.post, uri, headers: headers, body: emptyContext).status
            }
            let apiKey = HTTPField.Name("X-API-Key")!
            #expect(try await status([:]) == .unauthorized)
            #expect(try await status([.authorization: "Bearer wrong"]) == .unauthorized)
            #expect(try await status([apiKey: "wrong"]) == .unauthorized)
            #expect(try await status([.authorization: "Bearer read-secret"]) == .ok)
            #expect(try await status([apiKey: "read-secret"]) == .ok)
            #expect(try await status([.authorization: "Bearer admin-secret"]) == .ok)
            #expect(try await status([:], uri: "/ofrep/v1/evaluate/flags") == .unauthorized)
            #expect(try await status([apiKey: "read-secret"], uri: "/ofrep/v1/evaluate/flags") == .ok)

            let refused = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio",
                                                   body: emptyContext)
            #expect(try refused.json == [
                "errorCode": "GENERAL", "errorDetails": "this server needs a token",
            ])
            // The read token is the built-in reader: the admin API's GET routes, and no write.
            #expect(try await adminStatus(client, "Bearer read-secret") == .ok)
            #expect(try await adminStatus(client, "Bearer read-secret", method: .put, uri: "/v1/overrides/app.ratio",
                                          body: .json(#"{"value":2}"#)) == .forbidden)
        }
    }

    @Test func leavesHealthAndMetricsOpen() async throws {
        try await withClient(admin: "admin-secret", read: "read-secret") { client in
            for uri in ["/healthz", "/metrics", "/ping"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .ok, "\(uri)")
            }
        }
    }
}
