import Crypto
import Foundation
import Locking
import Logging

/// The console's sign-in: the authorization code flow with PKCE, run by the server so that the page talks only to
/// its own origin.
///
/// 1. ``beginSignIn(redirectURI:next:)`` makes a random `state`, `nonce` and PKCE verifier, keeps them (with the
///    redirect URI and the page's deep link) for ten minutes, and gives the provider's authorization URL.
/// 2. The provider sends the browser back to the callback with `code` and `state`; ``finishSignIn(code:state:)``
///    takes the kept sign-in (once: a replayed `state` finds nothing), exchanges the code, verifies the ID token
///    (as a bearer JWT, its audience the client id, plus the nonce) and begins a session that ends with the ID
///    token, at most ``maxSessionLength`` later.
extension OIDCSignIn {
    /// Where to send the browser to sign in.
    ///
    /// - Throws: `provider_unavailable` when discovery cannot be read.
    func beginSignIn(redirectURI: String, next: String, now: Date = Date()) async throws(Refusal) -> URL {
        let endpoints: IdentityProvider.Endpoints
        do {
            endpoints = try await provider.endpoints()
        } catch {
            logger.warning("sign-in: \(error.description)")
            throw Refusal(reason: "provider_unavailable", message: "the identity provider cannot be reached; try "
                + "again later")
        }
        let pending = PendingSignIn(verifier: Self.randomText(), nonce: Self.randomText(), redirectURI: redirectURI,
                                    next: next)
        let signInState = Self.randomText()
        state.withLock { $0.pending.set(signInState, to: pending, until: now + Self.signInLength, now: now) }
        var components = URLComponents(string: endpoints.authorizationEndpoint)
        var query = components?.queryItems ?? []
        query += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: settings.clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "scope", value: "openid profile email"),
            URLQueryItem(name: "state", value: signInState),
            URLQueryItem(name: "nonce", value: pending.nonce),
            URLQueryItem(name: "code_challenge", value: Self.challenge(for: pending.verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        components?.percentEncodedQuery = query.map { item in
            IdentityProvider.formEncoded([(item.name, item.value ?? "")])
        }.joined(separator: "&")
        guard let url = components?.url else {
            throw Refusal(reason: "provider_unavailable", message: "the identity provider's authorization endpoint "
                + "'\(endpoints.authorizationEndpoint)' is not a URL")
        }
        return url
    }

    /// A finished sign-in: the session token and the deep link the page goes back to.
    struct Session {
        var token: String
        var next: String
        var principal: Principal
    }

    /// Finishes a sign-in the provider sent back.
    ///
    /// - Throws: `unknown_state` for a `state` the server did not make, made more than ten minutes ago, or already
    ///   used; `provider_unavailable` when the code cannot be exchanged; `wrong_nonce`; and what ``verify(_:audience:now:)``
    ///   and ``principal(from:source:)`` refuse.
    func finishSignIn(code: String, state signInState: String, now: Date = Date()) async throws(Refusal) -> Session {
        guard let pending = state.withLock({ $0.pending.take(signInState, now: now) }) else {
            throw Refusal(reason: "unknown_state", message: "this sign-in is unknown, expired or already used; sign "
                + "in again")
        }
        let secret: String?
        do {
            secret = try settings.clientSecretFile.map { path in
                try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        } catch {
            logger.error("sign-in: the client secret file \(settings.clientSecretFile ?? "") cannot be read: \(error)")
            throw Refusal(reason: "provider_unavailable", message: "the server cannot read its client secret")
        }
        let idToken: String
        do {
            idToken = try await provider.exchange(code: code, verifier: pending.verifier,
                                                  redirectURI: pending.redirectURI, clientID: settings.clientID,
                                                  clientSecret: secret)
        } catch {
            logger.warning("sign-in: \(error.description)")
            throw Refusal(reason: "provider_unavailable", message: "the identity provider did not complete the "
                + "sign-in: \(error.description)")
        }
        let claims = try await verify(idToken, audience: settings.clientID, now: now)
        guard let nonce = claims.strings["nonce"], nonce == pending.nonce else {
            throw Refusal(reason: "wrong_nonce", message: "the ID token does not belong to this sign-in (its nonce "
                + "differs)")
        }
        var principal = try principal(from: claims, source: .session)
        let end = min(principal.expiresAt ?? now, now + Self.maxSessionLength)
        principal.expiresAt = end
        let token = Self.sessionPrefix + Self.randomText()
        let digest = TokenDigest.sha256(of: token)
        state.withLock { $0.sessions.set(digest, to: principal, until: end, now: now) }
        return Session(token: token, next: pending.next, principal: principal)
    }

    /// 256 random bits from the system's secure generator, in URL-safe base64 (43 characters).
    static func randomText() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// The PKCE S256 challenge of a verifier (RFC 7636 §4.2).
    static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
