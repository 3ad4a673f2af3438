import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// HEAD wherever GET is (RFC 9110 §9.1): the GET answer's status and headers without its body, so that a health
/// probe or a link checker that sends HEAD gets what GET would; the event streams and the sign-in's redirects,
/// which start something, answer 405.
@Suite struct HeadRequestTests {
    let project = TestProject(fixture: "flags")
    static let admin: HTTPFields = [.authorization: "Bearer admin-secret"]

    @Test(arguments: ["/healthz", "/v1/flags", "/v1/flags/app.ratio", "/v1/audit", "/", "/console/api/session"])
    func headAnswersAsGetWithoutTheBody(path: String) async throws {
        let server = FlagServer(board: try project.board(),
                                configuration: ServerConfiguration(adminToken: AccessToken("admin-secret")))
        try await server.makeApplication().test(.router) { client in
            let get = try await client.send(.get, path, headers: Self.admin)
            let head = try await client.send(.head, path, headers: Self.admin)
            #expect(get.status == .ok, "\(path)")
            #expect(head.status == get.status, "\(path)")
            #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
            #expect(head.body.readableBytes == 0, "\(path)")
        }
    }

    /// What GET starts (a stream, a sign-in, a code's redemption) HEAD must not start.
    @Test(arguments: ["/ofrep/v1/events", "/console/api/events", "/console/oidc/login", "/console/oidc/callback"])
    func whatStartsSomethingRefusesHead(path: String) async throws {
        let server = FlagServer(board: try project.board(),
                                configuration: ServerConfiguration(adminToken: AccessToken("admin-secret")))
        try await server.makeApplication().test(.router) { client in
            let head = try await client.send(.head, path, headers: Self.admin)
            #expect(head.status == .methodNotAllowed, "\(path)")
            #expect(head.headers[.allow] == "GET", "\(path)")
        }
    }
}
