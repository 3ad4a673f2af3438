public import Foundation

/// Who sent a request, as the server verified it: a name, what the name may do, and how it was verified.
///
/// The name is what the audit records as `actor`; a name the client sends in a body is kept beside it as
/// `claimed_actor` and never replaces it.
public struct Principal: Sendable, Hashable {
    /// How the server knows who this is.
    public enum Source: String, Sendable, Hashable {
        /// A token of the access file, matched by its SHA-256.
        case token
        /// The admin or read token of `SWITCHBOARD_ADMIN_TOKEN` / `SWITCHBOARD_READ_TOKEN` (or their files): the
        /// built-in people `admin-token` and `read-token`.
        case builtIn
        /// A JWT of the identity provider, verified against its JWKS.
        case jwt
        /// A console session begun by signing in through the identity provider.
        case session
        /// No token, on a server whose reads are open.
        case anonymous
    }

    /// The verified name: the person's name in the access file, `admin-token`, `read-token`, the ID token's
    /// name claim, or `anonymous`.
    public var name: String
    /// What the principal may do.
    public var grant: Grant
    /// How the server knows.
    public var source: Source
    /// When the principal's credentials stop counting (a JWT's or a session's `exp`); `nil`: until revoked.
    public var expiresAt: Date?

    /// Creates a principal.
    public init(name: String, grant: Grant, source: Source, expiresAt: Date? = nil) {
        self.name = name
        self.grant = grant
        self.source = source
        self.expiresAt = expiresAt
    }

    /// Whether the audit may call this name verified: everyone but the anonymous reader, who cannot write anyway.
    public var isVerified: Bool { source != .anonymous }

    /// The name of the built-in person holding the admin token.
    public static let adminTokenName = "admin-token"
    /// The name of the built-in person holding the read token.
    public static let readTokenName = "read-token"
}
