import Foundation
import JWTKit
import Locking
import Logging
import Switchboard

/// Sign-in through an OpenID Connect identity provider: verifies the provider's JWTs presented as bearer tokens,
/// runs the console's sign-in (``beginSignIn(redirectURI:next:)``, ``finishSignIn(code:state:)``) and knows the
/// console sessions it began.
///
/// A JWT is accepted when jwt-kit verifies its signature against the provider's JWKS (``IdentityProvider``), `iss`
/// is the issuer, `aud` holds the audience, it is within `exp` and `nbf` (with ``clockSkew``), and its roles claim
/// names a group of the access file's map. A verified JWT is remembered until its `exp`, so a client that sends the
/// same one on every request is verified once. The refusal reasons, which label
/// `switchboard_auth_failures_total`: `expired`, `not_yet_valid`, `bad_signature`, `wrong_audience`,
/// `wrong_issuer`, `unknown_key`, `no_role`, `malformed`, `provider_unavailable`.
final class OIDCSignIn: BearerVerifier {
    let settings: OIDCSettings
    let provider: IdentityProvider
    let logger: Logger
    /// Where the console's failed sign-ins are counted (bearer refusals are counted by ``AccessControl``).
    let metrics: ServerMetrics
    /// How far `exp` and `nbf` may be off: the provider's clock and this server's disagree a little.
    static let clockSkew: TimeInterval = 60
    /// The longest a console session lasts, whatever the ID token says.
    static let maxSessionLength: TimeInterval = 12 * 3600
    /// How long a sign-in may take between the redirect to the provider and the callback.
    static let signInLength: TimeInterval = 600
    /// The prefix of a console session token.
    static let sessionPrefix = "sbs_"

    let state = Locked(State())

    struct State {
        /// Verified JWTs by their SHA-256, until their `exp`.
        var verified = ExpiringEntries<Principal>(capacity: 10_000)
        /// Console sessions by the SHA-256 of their token.
        var sessions = ExpiringEntries<Principal>(capacity: 10_000)
        /// Sign-ins under way, by `state`.
        var pending = ExpiringEntries<PendingSignIn>(capacity: 1_000)
    }

    /// What the server keeps of a sign-in between the redirect to the provider and the callback.
    struct PendingSignIn {
        var verifier: String
        var nonce: String
        var redirectURI: String
        var next: String
    }

    /// Why a JWT is not accepted.
    struct Refusal: Error {
        /// The metric's label.
        var reason: String
        /// What the client is told.
        var message: String
    }

    init(settings: OIDCSettings, provider: IdentityProvider? = nil, metrics: ServerMetrics, logger: Logger) {
        self.settings = settings
        self.provider = provider ?? IdentityProvider(issuer: settings.issuer)
        self.metrics = metrics
        self.logger = logger
    }

    /// Why the identity provider could not be read at the last try; `nil` when it could (``IdentityProvider``).
    var problem: String? { provider.problem }

    // MARK: - Bearer tokens

    func principal(forBearer token: String) async -> BearerVerdict {
        let digest = TokenDigest.sha256(of: token)
        if token.hasPrefix(Self.sessionPrefix) {
            guard let principal = state.withLock({ $0.sessions.value(for: digest) }) else { return .notMine }
            return .verified(principal)
        }
        guard Self.looksLikeJWT(token) else { return .notMine }
        if let principal = state.withLock({ $0.verified.value(for: digest) }) { return .verified(principal) }
        do {
            let claims = try await verify(token, audience: settings.audience)
            let principal = try principal(from: claims, source: .jwt)
            let end = principal.expiresAt ?? Date()
            state.withLock { $0.verified.set(digest, to: principal, until: end) }
            return .verified(principal)
        } catch {
            return .refused(reason: error.reason, message: error.message)
        }
    }

    /// Whether a bearer has a JWT's shape: three base64url parts, the first a JSON header with an `alg`. Anything
    /// else belongs to another verifier.
    static func looksLikeJWT(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = base64URLDecoded(parts[0]),
              let object = try? JSONSerialization.jsonObject(with: header) as? [String: Any]
        else { return false }
        return object["alg"] != nil
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// The signing algorithms accepted: asymmetric ones only, so that neither `none` nor an HMAC keyed with the
    /// provider's public key can pass.
    static let acceptedAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]

    /// Verifies a JWT's signature and its `iss`, `aud`, `exp` and `nbf`.
    ///
    /// - Throws: a ``Refusal`` with the reason.
    func verify(_ token: String, audience: String, now: Date = Date()) async throws(Refusal) -> TokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URLDecoded(parts[0]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any]
        else { throw Refusal(reason: "malformed", message: "the token is not a JWT") }
        let algorithm = header["alg"] as? String ?? ""
        guard Self.acceptedAlgorithms.contains(algorithm) else {
            throw Refusal(reason: "bad_signature",
                          message: "the token's signing algorithm '\(algorithm)' is not accepted")
        }
        guard let keyID = header["kid"] as? String, !keyID.isEmpty else {
            throw Refusal(reason: "unknown_key", message: "the token names no signing key (no 'kid')")
        }
        let keys: IdentityProvider.Keys
        do {
            keys = try await provider.keys(for: keyID)
        } catch {
            logger.warning("sign-in: \(error.description)")
            throw Refusal(reason: "provider_unavailable",
                          message: "the identity provider cannot be reached to verify the token; try again later")
        }
        // jwt-kit falls back to its default key for an id it does not hold: the id is checked here first.
        guard keys.ids.contains(keyID) else {
            throw Refusal(reason: "unknown_key", message: "the token is signed with a key the identity provider "
                + "does not publish ('\(keyID)')")
        }
        let claims: TokenClaims
        do {
            claims = try await keys.collection.verify(token, as: TokenClaims.self)
        } catch let error as JWTError where error.errorType == .malformedToken {
            throw Refusal(reason: "malformed", message: "the token cannot be read")
        } catch {
            throw Refusal(reason: "bad_signature", message: "the token's signature does not verify")
        }
        let issuer = settings.issuer.absoluteString
        guard let claimed = claims.issuer, Self.sameIssuer(claimed, issuer) else {
            throw Refusal(reason: "wrong_issuer", message: "the token was issued by '\(claims.issuer ?? "nobody")', "
                + "not by \(issuer)")
        }
        guard claims.audiences.contains(audience) else {
            throw Refusal(reason: "wrong_audience", message: "the token is not meant for this server (its audience "
                + "is not '\(audience)')")
        }
        guard let expiresAt = claims.expiresAt else {
            throw Refusal(reason: "malformed", message: "the token has no expiry ('exp')")
        }
        guard now.timeIntervalSince(expiresAt) < Self.clockSkew else {
            throw Refusal(reason: "expired", message: "the token expired at \(Self.text(expiresAt))")
        }
        if let notBefore = claims.notBefore, notBefore.timeIntervalSince(now) > Self.clockSkew {
            throw Refusal(reason: "not_yet_valid", message: "the token is not valid before \(Self.text(notBefore))")
        }
        return claims
    }

    /// Whether two issuer URLs are the same, a trailing slash aside.
    static func sameIssuer(_ lhs: String, _ rhs: String) -> Bool {
        func trimmed(_ text: String) -> Substring {
            var text = Substring(text)
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        return trimmed(lhs) == trimmed(rhs)
    }

    /// The principal a verified token names: its name claim and the grant of its groups.
    ///
    /// - Throws: `no_role` when no group of the token is in the map, `malformed` without a name.
    func principal(from claims: TokenClaims, source: Principal.Source) throws(Refusal) -> Principal {
        guard let name = claims.strings[settings.nameClaim], !name.isEmpty else {
            throw Refusal(reason: "malformed", message: "the token has no '\(settings.nameClaim)' claim to name "
                + "its holder")
        }
        guard let grant = settings.grant(forGroups: claims.list(settings.rolesClaim)) else {
            throw Refusal(reason: "no_role", message: "\(PersonName.shown(name)) is in no group that the access file "
                + "gives a role (claim '\(settings.rolesClaim)')")
        }
        return Principal(name: name, grant: grant, source: source, expiresAt: claims.expiresAt)
    }

    static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
