import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import Locking
import Logging
import NIOCore

/// A small OpenID Connect identity provider on an ephemeral loopback port, for the sign-in tests: discovery, a
/// JWKS of ES256 keys it can rotate, an authorize endpoint that sends the browser straight back with a code, and a
/// token endpoint that checks the PKCE verifier and answers an ID token.
final class TestIdentityProvider: Sendable {
    /// Who the authorize endpoint signs in.
    struct Person: Sendable {
        var email: String
        var groups: [String]
    }

    /// A request to the authorize endpoint, as the provider saw it.
    struct Authorization: Sendable {
        var clientID: String
        var redirectURI: String
        var state: String
        var nonce: String
        var challenge: String
        var challengeMethod: String
        var scope: String
    }

    private struct Grant {
        var authorization: Authorization
        var person: Person
    }

    private struct State {
        var signingKeys: [String: ES256PrivateKey] = [:]
        var published: [String] = []
        var current = ""
        var person = Person(email: "ana@example.com", groups: ["flag-admins"])
        var codes: [String: Grant] = [:]
        var authorizations: [Authorization] = []
        var jwksFetches = 0
        var tokenRequests: [[String: String]] = []
    }

    private let state = Locked(State())
    private let task: Locked<Task<Void, any Error>?> = Locked(nil)
    /// The port it listens on.
    let port: Int

    /// The issuer: `http://127.0.0.1:<port>`, which the access file may name since it is a loopback address.
    var issuer: String { "http://127.0.0.1:\(port)" }

    /// Starts a provider publishing one key, `key-1`.
    init() async throws {
        let router = Router()
        let box = Locked<TestIdentityProvider?>(nil)
        router.get(".well-known/openid-configuration") { _, _ -> Response in
            box.withLock { $0 }?.discovery() ?? Response(status: .serviceUnavailable)
        }
        router.get("jwks") { _, _ -> Response in
            box.withLock { $0 }?.jwks() ?? Response(status: .serviceUnavailable)
        }
        router.get("authorize") { request, _ -> Response in
            box.withLock { $0 }?.authorize(request) ?? Response(status: .serviceUnavailable)
        }
        router.post("token") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            return try await box.withLock { $0 }?.token(String(buffer: body)) ?? Response(status: .serviceUnavailable)
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: Logger(label: "test-identity-provider") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try await app.runService() }
        var ports = stream.makeAsyncIterator()
        port = await ports.next() ?? 0
        task.withLock { $0 = running }
        box.withLock { $0 = self }
        rotate(to: "key-1")
    }

    /// Runs `body` with a provider and stops it whatever happens.
    static func with<Result>(_ body: (TestIdentityProvider) async throws -> Result) async throws -> Result {
        let provider = try await TestIdentityProvider()
        do {
            let result = try await body(provider)
            await provider.stop()
            return result
        } catch {
            await provider.stop()
            throw error
        }
    }

    /// Stops the server.
    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = try? await running?.value
    }

    /// Makes a new key `id`, publishes it beside the old ones and signs with it from now on.
    func rotate(to id: String) {
        let key = ES256PrivateKey()
        state.withLock { state in
            state.signingKeys[id] = key
            state.published.append(id)
            state.current = id
        }
    }

    /// Sets who the authorize endpoint signs in next.
    func signIn(as person: Person) { state.withLock { $0.person = person } }

    /// How often the JWKS has been read.
    var jwksFetches: Int { state.withLock { $0.jwksFetches } }
    /// The authorize requests so far.
    var authorizations: [Authorization] { state.withLock { $0.authorizations } }
    /// The token endpoint's form requests so far.
    var tokenRequests: [[String: String]] { state.withLock { $0.tokenRequests } }

    // MARK: - Tokens

    /// The claims the provider signs.
    struct Claims: JWTPayload {
        var iss: String
        var aud: [String]
        var exp: Int
        var nbf: Int?
        var iat: Int
        var email: String?
        var groups: [String]?
        var nonce: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Claims for `person`, issued now by this provider for `audience`, valid for `lifetime` seconds.
    func claims(
        email: String = "ana@example.com", groups: [String] = ["flag-admins"], audience: String = "switchboard",
        lifetime: Int = 300, notBefore: Int? = nil, nonce: String? = nil
    ) -> Claims {
        let now = Int(Date().timeIntervalSince1970)
        return Claims(iss: issuer, aud: [audience], exp: now + lifetime, nbf: notBefore.map { now + $0 }, iat: now,
                      email: email, groups: groups, nonce: nonce)
    }

    /// A JWT of `claims`, signed with the current key (or key `id`, or `key` under the name `id`).
    func token(_ claims: Claims, keyID id: String? = nil, key: ES256PrivateKey? = nil) async throws -> String {
        let (kid, signingKey) = state.withLock { state in
            let kid = id ?? state.current
            return (kid, key ?? state.signingKeys[kid]!)
        }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// The public key `id` in PEM, for forging an HMAC keyed with it.
    func publicKeyPEM(_ id: String) -> String {
        state.withLock { $0.signingKeys[id]!.publicKey.pemRepresentation }
    }

    // MARK: - Endpoints

    private func discovery() -> Response {
        json([
            "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
            "jwks_uri": issuer + "/jwks", "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"], "id_token_signing_alg_values_supported": ["ES256"],
        ])
    }

    private func jwks() -> Response {
        let keys = state.withLock { state -> [[String: String]] in
            state.jwksFetches += 1
            return state.published.map { id in
                let parameters = state.signingKeys[id]!.publicKey.parameters!
                return ["kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": id,
                        "x": parameters.x, "y": parameters.y]
            }
        }
        return json(["keys": keys])
    }

    private func authorize(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        func field(_ name: String) -> String { query[Substring(name)].map(String.init) ?? "" }
        let authorization = Authorization(
            clientID: field("client_id"), redirectURI: field("redirect_uri"), state: field("state"),
            nonce: field("nonce"), challenge: field("code_challenge"),
            challengeMethod: field("code_challenge_method"), scope: field("scope"))
        let code = UUID().uuidString
        state.withLock { state in
            state.authorizations.append(authorization)
            state.codes[code] = Grant(authorization: authorization, person: state.person)
        }
        var back = URLComponents(string: authorization.redirectURI)!
        back.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: authorization.state)]
        return Response(status: .found, headers: [.location: back.url!.absoluteString])
    }

    private func token(_ body: String) async throws -> Response {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        let grant = state.withLock { state in
            state.tokenRequests.append(form)
            return form["code"].flatMap { state.codes.removeValue(forKey: $0) }
        }
        guard let grant, form["grant_type"] == "authorization_code",
              form["redirect_uri"] == grant.authorization.redirectURI,
              form["client_id"] == grant.authorization.clientID,
              let verifier = form["code_verifier"],
              Self.challenge(for: verifier) == grant.authorization.challenge
        else {
            return json(["error": "invalid_grant"], status: .badRequest)
        }
        let claims = claims(email: grant.person.email, groups: grant.person.groups,
                            audience: grant.authorization.clientID, nonce: grant.authorization.nonce)
        return json(["access_token": "opaque", "token_type": "Bearer", "id_token": try await token(claims)])
    }

    static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
