import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The console's sign-in through the identity provider, over HTTP as a browser follows it: login → the provider's
/// authorize endpoint → the callback → a session the console's routes accept.
@Suite struct ConsoleSignInTests {
    let project = TestProject(fixture: "flags")

    private func withServer(
        _ body: @escaping @Sendable (TestIdentityProvider, LiveServer, SignInBrowser) async throws -> Void
    ) async throws {
        try await TestIdentityProvider.with { provider in
            let path = project.write("access.yaml", provider.accessFile)
            try await LiveServer.with(project, configure: { $0.accessFile = path }) { server in
                try await body(provider, server, SignInBrowser(server: server.port, provider: provider.port))
            }
        }
    }

    @Test func signsInThroughTheProviderAndKeepsTheDeepLink() async throws {
        try await withServer { provider, server, browser in
            let login = try await browser.get(server: "/console/oidc/login?next=%23/flags/app.theme")
            #expect(login.status == .found)
            let authorize = try #require(login.location.flatMap(URLComponents.init(string:)))
            #expect(authorize.path == "/authorize")
            let query = Dictionary(uniqueKeysWithValues: (authorize.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["response_type"] == "code")
            #expect(query["client_id"] == "switchboard")
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["code_challenge"]?.count == 43)
            #expect(query["state"]?.count ?? 0 >= 43)
            #expect(query["nonce"]?.count ?? 0 >= 43)
            #expect(query["scope"]?.split(separator: " ").contains("openid") == true)
            #expect(query["redirect_uri"] == "http://127.0.0.1:\(server.port)/console/oidc/callback")

            let back = try await browser.follow(login)
            let callback = try #require(back.location)
            #expect(callback.hasPrefix("http://127.0.0.1:\(server.port)/console/oidc/callback?code="))
            let done = try await browser.follow(back)
            #expect(done.status == .found)
            let page = try #require(done.fragmentQuery)
            let token = try #require(page["token"])
            #expect(token.hasPrefix("sbs_") && token.count >= 4 + 43)
            #expect(page["next"] == "#/flags/app.theme")
            #expect(done.response.headers[.cacheControl] == "no-store")
            // The token endpoint was given the PKCE verifier whose challenge the login sent (the provider checks).
            #expect(provider.tokenRequests.first?["code_verifier"]?.count == 43)

            let session = try await browser.get(server: "/console/api/session", bearer: token)
            #expect(session.status == .ok)
            let document = try #require(try Value(jsonBytes: Array(session.body.utf8)).objectValue)
            #expect(document["user"]?.objectValue?["name"] == "ana@example.com", "\(session.body)")
            #expect(document["canWrite"] == true)
            #expect(document["signIn"]?.objectValue?["url"] == "/console/oidc/login")
            #expect(document["signIn"]?.objectValue?["issuer"] == .string(provider.issuer))
            // The session writes as the person it names.
            let write = try await browser.send(.put, server: "/v1/overrides/app.ratio", bearer: token,
                                               body: #"{"value":3}"#)
            #expect(write.status == .ok, "\(write.body)")

            // The same callback again: the state was used once and is gone.
            let replay = try await browser.get(server: String(callback.dropFirst("http://127.0.0.1:\(server.port)".count)))
            #expect(replay.status == .found)
            #expect(replay.fragmentQuery?["token"] == nil)
            #expect(replay.fragmentQuery?["error"]?.contains("unknown, expired or already used") == true)
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="unknown_state"} 1"#))
        }
    }

    @Test func refusesAStateItDidNotMake() async throws {
        try await withServer { provider, server, browser in
            let answer = try await browser.get(server: "/console/oidc/callback?code=abc&state=made-up")
            #expect(answer.status == .found)
            #expect(answer.fragmentQuery?["error"]?.hasPrefix("Sign-in failed: this sign-in is unknown") == true)
            #expect(answer.fragmentQuery?["next"] == "#/")
            #expect(provider.tokenRequests.isEmpty)
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="unknown_state"} 1"#))
            let session = try await browser.get(server: "/console/api/session", bearer: "sbs_made-up")
            #expect(session.status == .unauthorized)
        }
    }

    @Test func refusesSomeoneInNoMappedGroup() async throws {
        try await withServer { provider, server, browser in
            provider.signIn(as: .init(email: "eve@example.com", groups: ["marketing"]))
            let login = try await browser.get(server: "/console/oidc/login")
            let done = try await browser.follow(try await browser.follow(login))
            #expect(done.fragmentQuery?["token"] == nil)
            #expect(done.fragmentQuery?["error"]?.contains("eve@example.com is in no group") == true)
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="no_role"} 1"#))
        }
    }

    @Test func showsTheProvidersRefusal() async throws {
        try await withServer { _, server, browser in
            let answer = try await browser.get(
                server: "/console/oidc/callback?error=access_denied&error_description=nope&state=x")
            #expect(answer.fragmentQuery?["error"] ==
                "Sign-in failed: the identity provider refused the sign-in (access_denied: nope)")
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="provider_refused"} 1"#))
        }
    }

    @Test func buildsTheRedirectURIFromTheForwardedScheme() async throws {
        try await withServer { _, server, browser in
            let login = try await browser.get(server: "/console/oidc/login?next=javascript:alert(1)",
                                              headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"],
                                              authority: "flags.example.com")
            let query = URLComponents(string: login.location ?? "")?.queryItems ?? []
            #expect(query.first { $0.name == "redirect_uri" }?.value
                == "https://flags.example.com/console/oidc/callback")
        }
    }

    @Test func saysSoWhenTheProviderIsDown() async throws {
        // Port 1 on loopback: nothing listens there.
        let file = try await TestIdentityProvider.with { provider in
            provider.accessFile.replacingOccurrences(of: provider.issuer, with: "http://127.0.0.1:1")
        }
        let path = project.write("access.yaml", file)
        try await LiveServer.with(project, configure: { $0.accessFile = path }) { server in
            let browser = SignInBrowser(server: server.port, provider: 1)
            let answer = try await browser.get(server: "/console/oidc/login?next=%23/history")
            #expect(answer.status == .found)
            #expect(answer.fragmentQuery?["error"] ==
                "Sign-in failed: the identity provider cannot be reached; try again later")
            #expect(answer.fragmentQuery?["next"] == "#/history")
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="provider_unavailable"} 1"#))
        }
    }

    @Test func aServerWithAReadTokenOffersNoConsoleWithoutOne() async throws {
        try await LiveServer.with(project, configure: { $0.readToken = AccessToken("read-secret") }) { server in
            let browser = SignInBrowser(server: server.port, provider: 1)
            let options = try await browser.get(server: "/console/sign-in/options")
            #expect(options.status == .ok && options.body == #"{"provider":null,"readOnlyWithoutToken":false}"#)
            #expect(try await browser.get(server: "/console/api/session").status == .unauthorized)
        }
    }

    @Test func answersNotFoundWithoutAnIdentityProvider() async throws {
        try await LiveServer.with(project, configure: { $0.adminToken = AccessToken("admin-secret") }) { server in
            let browser = SignInBrowser(server: server.port, provider: 1)
            for path in ["/console/oidc/login", "/console/oidc/callback?code=a&state=b"] {
                let answer = try await browser.get(server: path)
                #expect(answer.status == .notFound, "\(path)")
                #expect(answer.body.contains("add `oidc:`"), "\(path): \(answer.body)")
            }
            let provider = try await browser.get(server: "/console/oidc/provider")
            #expect(provider.status == .ok && provider.body == "null")
            // With only an admin token the console opens read-only without one, so the dialog offers it.
            let options = try await browser.get(server: "/console/sign-in/options")
            #expect(options.status == .ok && options.body == #"{"provider":null,"readOnlyWithoutToken":true}"#)
            let session = try await browser.get(server: "/console/api/session", bearer: "admin-secret")
            #expect(try Value(jsonBytes: Array(session.body.utf8)).objectValue?["signIn"] == .null)
        }
    }
}

/// Follows the sign-in's redirects between the server and the provider, as a browser would.
struct SignInBrowser: Sendable {
    let server: Int
    let provider: Int

    struct Answer {
        var response: TestClient.Response
        var status: HTTPResponse.Status { response.status }
        var location: String? { response.headers[.location] }
        var body: String { response.body.map { String(buffer: $0) } ?? "" }
        /// The query in the fragment of a redirect to the page (`/#/session?token=…&next=…`).
        var fragmentQuery: [String: String]? {
            guard let location, let fragment = URLComponents(string: location)?.percentEncodedFragment,
                  let query = URLComponents(string: fragment)?.queryItems
            else { return nil }
            return Dictionary(query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }
    }

    func get(server path: String, bearer: String? = nil, headers: HTTPFields = [:], authority: String? = nil)
        async throws -> Answer
    {
        try await send(.get, server: path, bearer: bearer, headers: headers, authority: authority)
    }

    func send(
        _ method: HTTPRequest.Method, server path: String, bearer: String? = nil, headers: HTTPFields = [:],
        authority: String? = nil, body: String? = nil
    ) async throws -> Answer {
        var headers = headers
        if let bearer { headers[.authorization] = "Bearer " + bearer }
        return try await request(port: server, method, path, authority: authority ?? "127.0.0.1:\(server)",
                                 headers: headers, body: body)
    }

    /// Goes where a redirect points, on the server or the provider.
    func follow(_ answer: Answer) async throws -> Answer {
        let location = try #require(answer.location.flatMap(URLComponents.init(string:)))
        let port = try #require(location.port)
        let path = location.percentEncodedPath + (location.percentEncodedQuery.map { "?" + $0 } ?? "")
        return try await request(port: port, .get, path, authority: "127.0.0.1:\(port)")
    }

    private func request(
        port: Int, _ method: HTTPRequest.Method, _ path: String, authority: String, headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> Answer {
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(TestClient.Request(path, method: method, authority: authority, headers: headers,
                                                        body: body.map { ByteBuffer(string: $0) }))
        }
        return Answer(response: response)
    }
}
