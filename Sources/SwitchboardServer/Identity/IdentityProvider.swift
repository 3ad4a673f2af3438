import AsyncHTTPClient
import Foundation
import JWTKit
import Locking
import NIOCore
import NIOHTTP1

/// An OpenID Connect provider as Switchboard talks to it: its discovery document, its signing keys and its token
/// endpoint, over HTTP.
///
/// Discovery (`{issuer}/.well-known/openid-configuration`) is read once and kept. The keys (the JWKS at
/// `jwks_uri`) are read on first use and again when a token names a key id the server has not seen: a provider
/// that rotates its keys is followed without a restart. Reads are spaced at least ``refreshInterval`` apart, so
/// tokens with made-up key ids cannot make the server hammer the provider.
final class IdentityProvider: Sendable {
    /// What discovery says.
    struct Endpoints: Decodable, Sendable {
        var issuer: String?
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
        }
    }

    /// The signing keys read last, and the key ids among them.
    struct Keys: Sendable {
        var collection: JWTKeyCollection
        var ids: Set<String>
    }

    /// Why the provider could not be used.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    let issuer: URL
    /// The shortest time between two reads of discovery or the keys.
    let refreshInterval: Duration
    private let client: HTTPClient
    private let state = Locked(State())

    private struct State {
        var endpoints: Endpoints?
        var keys: Keys?
        var lastFetch: ContinuousClock.Instant?
        var lastFailure: String?
        var inFlight: Task<String?, Never>?
    }

    /// How long a request to the provider may take.
    static let timeout: TimeAmount = .seconds(5)
    /// The most a response of the provider may hold.
    static let maxResponseBytes = 1 << 20

    /// How long after a read the keys may be read again: five seconds.
    static let defaultRefreshInterval: Duration = .seconds(5)

    init(issuer: URL, refreshInterval: Duration = defaultRefreshInterval, client: HTTPClient = .shared) {
        self.issuer = issuer
        self.refreshInterval = refreshInterval
        self.client = client
    }

    /// The discovery document, read on first use.
    func endpoints() async throws(Unavailable) -> Endpoints {
        if let endpoints = state.withLock({ $0.endpoints }) { return endpoints }
        try await refresh()
        guard let endpoints = state.withLock({ $0.endpoints }) else {
            throw Unavailable(description: "the identity provider's discovery document could not be read")
        }
        return endpoints
    }

    /// The keys that can verify a token signed with key `id`: the keys in hand when they hold it, else the keys
    /// read again (when the last read is at least ``refreshInterval`` old).
    ///
    /// - Throws: when the provider cannot be reached and no keys are in hand.
    func keys(for id: String) async throws(Unavailable) -> Keys {
        if let keys = state.withLock({ $0.keys }), keys.ids.contains(id) { return keys }
        try await refresh()
        guard let keys = state.withLock({ $0.keys }) else {
            throw Unavailable(description: "the identity provider's keys could not be read")
        }
        return keys
    }

    /// Reads discovery (until it has been read once) and the keys, unless the last read is too recent. Callers
    /// that arrive while a read is under way wait for it rather than start another or go on without keys (a burst
    /// of requests when the server starts, or just after the provider rotated its keys).
    private func refresh() async throws(Unavailable) {
        let now = ContinuousClock.now
        let read = state.withLock { state -> Task<String?, Never>? in
            if let inFlight = state.inFlight { return inFlight }
            if let last = state.lastFetch, now - last < refreshInterval { return nil }
            state.lastFetch = now
            let read = Task { await self.read() }
            state.inFlight = read
            return read
        }
        let failure: String?
        if let read { failure = await read.value } else { failure = state.withLock { $0.lastFailure } }
        if let failure { throw Unavailable(description: failure) }
    }

    /// One read of discovery (until it has been read once) and the keys; what went wrong, or `nil`.
    private func read() async -> String? {
        let known = state.withLock { $0.endpoints }
        var failure: String?
        do throws(Unavailable) {
            let endpoints: Endpoints
            if let known { endpoints = known } else { endpoints = try await discover() }
            let jwks = try await get(endpoints.jwksURI, as: JWKS.self, what: "keys (JWKS)")
            let collection = JWTKeyCollection()
            var ids = Set<String>()
            for key in jwks.keys {
                // A key jwt-kit cannot use (an encryption key, an unknown type) is skipped, not fatal.
                guard let id = key.keyIdentifier?.string, (try? await collection.add(jwk: key)) != nil else { continue }
                ids.insert(id)
            }
            let keys = Keys(collection: collection, ids: ids)
            state.withLock { state in
                state.endpoints = endpoints
                state.keys = keys
            }
        } catch {
            failure = error.description
        }
        state.withLock { state in
            state.lastFailure = failure
            state.inFlight = nil
            // The interval counts from the read's end: a provider that times out is not asked again at once, so
            // requests in the meantime get its failure at once rather than each waiting out a timeout of its own.
            state.lastFetch = ContinuousClock.now
        }
        return failure
    }

    /// Why no token can be verified: the last read of the provider failed and no keys are in hand; `nil` when
    /// keys are (a failed read of new keys still leaves those), or no read has been made (`/healthz`). The next
    /// token presented reads again, so it clears when the provider is back and someone signs in.
    var problem: String? { state.withLock { $0.keys == nil ? $0.lastFailure : nil } }

    private func discover() async throws(Unavailable) -> Endpoints {
        var base = issuer.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let endpoints = try await get(base + "/.well-known/openid-configuration", as: Endpoints.self,
                                      what: "discovery document")
        if let named = endpoints.issuer, !OIDCSignIn.sameIssuer(named, issuer.absoluteString) {
            throw Unavailable(description: "the discovery document at \(base) names another issuer, '\(named)'")
        }
        for url in [endpoints.authorizationEndpoint, endpoints.tokenEndpoint, endpoints.jwksURI] {
            guard let parsed = URL(string: url), OIDCSettings.isAcceptable(issuer: parsed) else {
                throw Unavailable(description: "the identity provider's discovery document names '\(url)', which "
                    + "is not https")
            }
        }
        return endpoints
    }

    /// Exchanges an authorization code for the provider's tokens; returns the ID token.
    func exchange(code: String, verifier: String, redirectURI: String, clientID: String, clientSecret: String?)
        async throws(Unavailable) -> String
    {
        let endpoints = try await endpoints()
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", clientID), ("code_verifier", verifier),
        ]
        if let clientSecret { form.append(("client_secret", clientSecret)) }
        var request = HTTPClientRequest(url: endpoints.tokenEndpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        struct TokenResponse: Decodable {
            var idToken: String?
            var error: String?
            var errorDescription: String?
            enum CodingKeys: String, CodingKey {
                case idToken = "id_token", error, errorDescription = "error_description"
            }
        }
        let answer = try await send(request, as: TokenResponse.self, what: "token endpoint", acceptingErrors: true)
        guard let idToken = answer.idToken else {
            let reason = [answer.error, answer.errorDescription].compactMap { $0 }.joined(separator: ": ")
            throw Unavailable(description: "the identity provider's token endpoint gave no ID token"
                + (reason.isEmpty ? "" : " (\(reason))"))
        }
        return idToken
    }

    private func get<Document: Decodable>(_ url: String, as type: Document.Type, what: String)
        async throws(Unavailable) -> Document
    {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        return try await send(request, as: type, what: what)
    }

    private func send<Document: Decodable>(
        _ request: HTTPClientRequest, as type: Document.Type, what: String, acceptingErrors: Bool = false
    ) async throws(Unavailable) -> Document {
        let body: ByteBuffer
        let status: HTTPResponseStatus
        do {
            // A provider that is down costs each caller at most this long (the client retries a refused
            // connection until then), and the next callers nothing until ``refreshInterval`` has passed.
            let response = try await client.execute(request, timeout: Self.timeout)
            status = response.status
            body = try await response.body.collect(upTo: Self.maxResponseBytes)
        } catch {
            throw Unavailable(description: "the identity provider's \(what) at \(request.url) cannot be reached: "
                + "\(error)")
        }
        guard status == .ok || (acceptingErrors && status.code >= 400 && status.code < 500) else {
            throw Unavailable(description: "the identity provider's \(what) at \(request.url) answered "
                + "\(status.code)")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(body.readableBytesView))
        } catch {
            throw Unavailable(description: "the identity provider's \(what) at \(request.url) is not what OpenID "
                + "Connect describes: \(error)")
        }
    }

    /// `application/x-www-form-urlencoded`.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { name, value in
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
            return encode(name) + "=" + encode(value)
        }.joined(separator: "&")
    }
}
