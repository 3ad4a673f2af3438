#if canImport(Glibc)
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `--cors-origin`: a page on a listed origin may call OFREP from a browser (its preflight answered without
/// credentials, every answer readable, refusals and event streams included); other origins, and the admin API and
/// the console for every origin, get no CORS headers.
@Suite struct CrossOriginTests {
    let project = TestProject(fixture: "flags")
    static let app = "https://app.example.com"
    static let emptyContext = ByteBuffer(string: "{\"context\": {}}")

    /// A server with a read token and the given `--cors-origin` values, through its router.
    private func withServer(
        origins: [String], _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(adminToken: AccessToken("admin"), readToken: AccessToken("read"))
        configuration.corsOrigins = try AllowedOrigins(origins)
        let server = FlagServer(board: try project.board(), configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private static func preflight(from origin: String, method: String = "POST") -> HTTPFields {
        [.origin: origin, .accessControlRequestMethod: method,
         .accessControlRequestHeaders: "authorization,content-type"]
    }

    @Test func aPreflightFromAListedOriginIsAnsweredWithoutCredentials() async throws {
        try await withServer(origins: [Self.app]) { client in
            for path in ["/ofrep/v1/evaluate/flags/app.new_flow", "/ofrep/v1/evaluate/flags", "/ofrep/v1/events"] {
                let response = try await client.send(.options, path, headers: Self.preflight(from: Self.app))
                #expect(response.status == .noContent, "\(path)")
                #expect(response.headers[.accessControlAllowOrigin] == Self.app)
                #expect(response.headers[.accessControlAllowMethods] == "GET, POST")
                #expect(response.headers[.accessControlAllowHeaders] == "authorization,content-type")
                #expect(response.headers[.accessControlMaxAge] == "600")
                #expect(response.headers[.vary] == "Origin")
            }
        }
    }

    @Test func answersToAListedOriginAreReadableRefusalsIncluded() async throws {
        try await withServer(origins: ["HTTPS://App.Example.com", "http://localhost:3000"]) { client in
            let answered = try await client.send(
                .post, "/ofrep/v1/evaluate/flags", headers: [.origin: Self.app, .authorization: "Bearer read"],
                body: Self.emptyContext)
            #expect(answered.status == .ok)
            #expect(answered.headers[.accessControlAllowOrigin] == Self.app)
            #expect(answered.headers[.accessControlExposeHeaders] == "ETag, Retry-After")
            #expect(answered.headers[.eTag] != nil)
            let refused = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.new_flow",
                                                headers: [.origin: "http://localhost:3000"], body: Self.emptyContext)
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.accessControlAllowOrigin] == "http://localhost:3000")
        }
    }

    /// Without the option, `OPTIONS` still says what a path takes.
    @Test func otherOriginsTheAdminAPIAndServersWithoutTheOptionSendNoCORSHeaders() async throws {
        try await withServer(origins: [Self.app]) { client in
            let stranger = try await client.send(.options, "/ofrep/v1/evaluate/flags",
                                                 headers: Self.preflight(from: "https://evil.example.com"))
            // Not a preflight the server answers: the access check sees a request without a token.
            #expect(stranger.status == .unauthorized)
            #expect(stranger.headers[.accessControlAllowOrigin] == nil)
            let subdomain = try await client.send(
                .post, "/ofrep/v1/evaluate/flags", headers: [.origin: "https://x.app.example.com",
                                                             .authorization: "Bearer read"],
                body: Self.emptyContext)
            #expect(subdomain.status == .ok)
            #expect(subdomain.headers[.accessControlAllowOrigin] == nil)
            let admin = try await client.send(.get, "/v1/flags",
                                              headers: [.origin: Self.app, .authorization: "Bearer admin"])
            #expect(admin.status == .ok)
            #expect(admin.headers[.accessControlAllowOrigin] == nil)
        }
        try await withServer(origins: []) { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags",
                                                 headers: [.origin: Self.app, .authorization: "Bearer read"],
                                                 body: Self.emptyContext)
            #expect(response.status == .ok)
            #expect(response.headers[.accessControlAllowOrigin] == nil)
            let options = try await client.send(.options, "/ofrep/v1/events",
                                                headers: [.authorization: "Bearer read"])
            #expect(options.status == .noContent)
            #expect(options.headers[.allow] == "GET, OPTIONS")
            #expect(options.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test func anyOriginIsAStarWithoutVary() async throws {
        try await withServer(origins: ["*"]) { client in
            let response = try await client.send(
                .post, "/ofrep/v1/evaluate/flags",
                headers: [.origin: "https://anyone.example", .authorization: "Bearer read"], body: Self.emptyContext)
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            #expect(response.headers[.vary] == nil)
        }
    }

    /// An event stream is written by its connection, not by Hummingbird's task: its head still carries the header.
    @Test func anEventStreamToAListedOriginCarriesTheHeader() async throws {
        try await LiveServer.with(project, configure: { $0.corsOrigins = try! AllowedOrigins([Self.app]) }) { live in
            let stream = try RawConnection(port: live.port)
            stream.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                        + "Origin: \(Self.app)\r\n\r\n")
            let received = try await stream.waitFor("retry: 1000\n\n")
            #expect(received.contains("\r\nAccess-Control-Allow-Origin: \(Self.app)\r\n"), "\(received)")
        }
    }

    /// Written as a browser sends it or not: case, the scheme's default port and IPv6 brackets do not matter.
    @Test func originsCompareAsBrowsersSendThem() throws {
        let origins = try AllowedOrigins(["HTTPS://App.Example.com:443", "http://[::1]:8080", "http://localhost:80"])
        #expect(origins.allowOrigin(for: "https://app.example.com") == "https://app.example.com")
        #expect(origins.allowOrigin(for: "http://[::1]:8080") == "http://[::1]:8080")
        #expect(origins.allowOrigin(for: "http://localhost") == "http://localhost")
        #expect(origins.allowOrigin(for: "http://[::1]") == nil)
        #expect(origins.allowOrigin(for: "https://app.example.com:8443") == nil)
        #expect(origins.allowOrigin(for: "null") == nil)
    }

    @Test(arguments: ["app.example.com", "https://app.example.com/", "https://app.example.com/path", "ftp://x.org",
                      "https://", "https://:443", "https://x.org:0", "https://user@x.org", "http://[::1",
                      "http://[]:80", "http://[::1]x", ""])
    func whatIsNoOriginIsRefused(entry: String) {
        #expect(throws: AllowedOrigins.Invalid.self) { try AllowedOrigins([entry]) }
    }
}
#endif
