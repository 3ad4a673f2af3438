import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// JWTs of the team's identity provider as bearer tokens on the admin API: verified against the provider's keys,
/// their issuer, audience and times checked, the role taken from the group claim; forgeries refused.
@Suite struct IdentityProviderBearerTests {
    let project = TestProject(fixture: "flags")

    /// Runs `body` with a provider and a live server whose access file trusts it, reading the provider's keys
    /// again at most every `keysRefreshInterval`.
    private func withServer(
        keysRefreshInterval: Duration = .seconds(5),
        _ body: @escaping @Sendable (TestIdentityProvider, LiveServer, TestClient) async throws -> Void
    ) async throws {
        try await TestIdentityProvider.with { provider in
            let path = project.write("access.yaml", provider.accessFile)
            try await LiveServer.with(project, configure: {
                $0.accessFile = path
                $0.identityKeysRefreshInterval = keysRefreshInterval
            }) { server in
                try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
                    try await body(provider, server, client)
                }
            }
        }
    }

    private func send(
        _ client: TestClient, _ method: HTTPRequest.Method = .get, _ uri: String = "/v1/flags", bearer: String,
        body: String? = nil
    ) async throws -> (status: HTTPResponse.Status, text: String) {
        let response = try await client.execute(TestClient.Request(
            uri, method: method, authority: "127.0.0.1", headers: [.authorization: "Bearer " + bearer],
            body: body.map { ByteBuffer(string: $0) }))
        return (response.status, response.body.map { String(buffer: $0) } ?? "")
    }

    @Test func acceptsAValidJWTAndRecordsItsHolder() async throws {
        try await withServer { provider, server, client in
            let token = try await provider.token(provider.claims(email: "ana@example.com", groups: ["flag-admins"]))
            #expect(try await send(client, bearer: token).status == .ok)
            let write = try await send(client, .put, "/v1/overrides/app.ratio", bearer: token,
                                       body: #"{"value":2,"actor":"mallory"}"#)
            #expect(write.status == .ok, "\(write.text)")
            let audit = try await send(client, .get, "/v1/audit", bearer: token)
            #expect(audit.text.contains(#""actor":"ana@example.com""#), "\(audit.text)")
            // Verified once, then remembered until its exp: the keys were read once.
            #expect(provider.jwksFetches == 1)
        }
    }

    /// A burst of requests as the server starts: one read of the keys, which every request waits for.
    @Test func readsTheKeysOnceForABurstOfRequests() async throws {
        try await withServer { provider, server, client in
            let tokens = try await (0..<8).asyncMap { index in
                try await provider.token(provider.claims(email: "person\(index)@example.com"))
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for token in tokens {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
                            try await send(client, bearer: token).status
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .ok, count: 8))
            #expect(provider.jwksFetches == 1)
        }
    }

    @Test func takesTheRoleFromTheGroupClaim() async throws {
        try await withServer { provider, server, client in
            let writer = try await provider.token(provider.claims(email: "bo@example.com", groups: ["payments"]))
            #expect(try await send(client, bearer: writer).status == .ok)
            let refused = try await send(client, .put, "/v1/overrides/app.theme", bearer: writer,
                                         body: #"{"value":{"dark":false}}"#)
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("outside the namespaces"), "\(refused.text)")
            let outsider = try await provider.token(provider.claims(email: "eve@example.com", groups: ["marketing"]))
            let noRole = try await send(client, bearer: outsider)
            #expect(noRole.status == .forbidden)
            #expect(noRole.text.contains("in no group"), "\(noRole.text)")
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="no_role"} 1"#))
        }
    }

    /// Each refusal, with the reason it is counted under.
    @Test func refusesTokensThatDoNotVerify() async throws {
        try await withServer { provider, server, client in
            let other = ES256PrivateKey()
            let header = #"{"alg":"none","kid":"key-1","typ":"JWT"}"#
            let payload = try JSONEncoder().encode(provider.claims())
            let unsigned = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(payload) + "."
            let hmacKeys = JWTKeyCollection()
            await hmacKeys.add(hmac: HMACKey(from: provider.publicKeyPEM("key-1")), digestAlgorithm: .sha256,
                               kid: JWKIdentifier(string: "key-1"))
            let cases: [(String, String, String)] = [
                ("wrong audience", try await provider.token(provider.claims(audience: "someone-else")),
                 "wrong_audience"),
                ("expired", try await provider.token(provider.claims(lifetime: -120)), "expired"),
                ("not yet valid", try await provider.token(provider.claims(notBefore: 600)), "not_yet_valid"),
                ("bad signature", try await provider.token(provider.claims(), keyID: "key-1", key: other),
                 "bad_signature"),
                ("alg none", unsigned, "bad_signature"),
                ("HMAC keyed with the public key", try await hmacKeys.sign(provider.claims(),
                                                                           kid: JWKIdentifier(string: "key-1")),
                 "bad_signature"),
            ]
            for (name, token, reason) in cases {
                let answer = try await send(client, bearer: token)
                #expect(answer.status == .unauthorized, "\(name): \(answer.text)")
                #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="\#(reason)"}"#),
                        "\(name): \(reason)")
            }
            // Within the clock skew, a token just past its exp still counts.
            let late = try await provider.token(provider.claims(lifetime: -30))
            #expect(try await send(client, bearer: late).status == .ok)
        }
    }

    @Test func refusesATokenOfAnotherIssuer() async throws {
        try await withServer { provider, server, client in
            var claims = provider.claims()
            claims.iss = "https://idp.example.com"
            let answer = try await send(client, bearer: try await provider.token(claims))
            #expect(answer.status == .unauthorized)
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="wrong_issuer"} 1"#))
        }
    }

    /// A token accepted (the keys read once), then the provider's keys rotated to `key-2`: a token of the new key.
    private func acceptOneTokenThenRotate(_ provider: TestIdentityProvider, _ client: TestClient) async throws -> String {
        let first = try await provider.token(provider.claims())
        #expect(try await send(client, bearer: first).status == .ok)
        #expect(provider.jwksFetches == 1)
        provider.rotate(to: "key-2")
        return try await provider.token(provider.claims(email: "bo@example.com"))
    }

    // An hour between reads: however slow the machine, the keys are not read again within this test.
    @Test func doesNotReadTheKeysAgainSoonAfterReadingThem() async throws {
        try await withServer(keysRefreshInterval: .seconds(3600)) { provider, server, client in
            let rotated = try await acceptOneTokenThenRotate(provider, client)
            // The keys were read a moment ago: the server does not read them again yet, whatever kid it sees.
            let early = try await send(client, bearer: rotated)
            #expect(early.status == .unauthorized)
            #expect(early.text.contains("does not publish"), "\(early.text)")
            let madeUp = try await provider.token(provider.claims(), keyID: "key-3", key: ES256PrivateKey())
            #expect(try await send(client, bearer: madeUp).status == .unauthorized)
            #expect(provider.jwksFetches == 1)
            #expect(server.metrics.contains(#"switchboard_auth_failures_total{reason="unknown_key"} 2"#))
        }
    }

    @Test func followsTheProviderWhenItRotatesItsKeys() async throws {
        try await withServer(keysRefreshInterval: .milliseconds(200)) { provider, server, client in
            let rotated = try await acceptOneTokenThenRotate(provider, client)
            // Once the interval has passed, a token of the new key makes the server read the keys again. A sleep
            // is a lower bound on the time passed, however slow the machine; the token is sent once, as a refused
            // one would count against this client's failed attempts.
            try await Task.sleep(for: .milliseconds(500))
            let answer = try await send(client, bearer: rotated)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(provider.jwksFetches == 2)
            // The old key is still published, so tokens signed before the rotation still verify.
            let old = try await provider.token(provider.claims(email: "cy@example.com"), keyID: "key-1")
            #expect(try await send(client, bearer: old).status == .ok)
        }
    }

    @Test func refusesWithProviderUnavailableWhenTheProviderIsDown() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let (token, file) = try await TestIdentityProvider.with { provider in
            (try await provider.token(provider.claims()),
             provider.accessFile.replacingOccurrences(of: provider.issuer, with: "http://127.0.0.1:1")
                + "\nanonymous_read: true\n")
        }
        let path = project.write("access.yaml", file)
        try await LiveServer.with(project, configure: { $0.accessFile = path }) { server in
            try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
                let answer = try await send(client, bearer: token)
                // The token may be fine: a client should try again, not give up as on a 401 or 403.
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.text.contains("cannot be reached"), "\(answer.text)")
                #expect(server.metrics.contains(
                    #"switchboard_auth_failures_total{reason="provider_unavailable"} 1"#))
                // Asked again at once, the server answers from its last try, and says when to try again.
                let again = try await client.execute(TestClient.Request(
                    "/v1/flags", method: .get, authority: "127.0.0.1", headers: [.authorization: "Bearer " + token],
                    body: nil))
                #expect(again.status == .serviceUnavailable)
                #expect(again.headers[.retryAfter] == "5")
                // Health says so: the server serves, but these tokens cannot be checked.
                let health = try await client.execute(TestClient.Request(
                    "/healthz", method: .get, authority: "127.0.0.1", headers: [:], body: nil))
                let document = try Value(json: health.body.map { String(buffer: $0) } ?? "")
                #expect(document.objectValue?["status"] == "degraded")
                let error = document.objectValue?["accessFile"]?.objectValue?["identityProviderError"]?.stringValue
                #expect(error?.isEmpty == false, "\(document)")
            }
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension TestIdentityProvider {
    /// An access file that trusts this provider: `flag-admins` are admins, `payments` writes `checkout` only.
    var accessFile: String {
        """
        oidc:
          issuer: \(issuer)
          audience: switchboard
          name_claim: email
          roles:
            claim: groups
            map:
              flag-admins: { role: admin }
              payments: { role: write, namespaces: [checkout] }
        """
    }
}

extension Range where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for index in self { results.append(try await transform(index)) }
        return results
    }
}
