import HTTPTypes
import Hummingbird

/// Who is using the console, from the token the page sends: what it may see and whether it may write.
///
/// The console reads with the same rule as OFREP — open when no read token is configured, else the read or the
/// admin token — and writes only through the admin API, with the admin token. A token that is neither is
/// refused even on an open server, so a mistyped admin token says so instead of quietly giving a read-only page.
enum ConsoleAccess: String, Sendable {
    /// The admin token: read and change.
    case admin
    /// The read token: read only.
    case read
    /// No token on a server without a read token: read only.
    case open

    /// The access a request's `Authorization: Bearer` token gives.
    ///
    /// - Throws: 401 when the server needs a token and none came, 403 when the token is not one of the server's.
    static func of(_ request: Request, adminToken: AccessToken?, readToken: AccessToken?) throws(ServerError)
        -> ConsoleAccess
    {
        guard let presented = AccessMiddleware.bearer(in: request) else {
            guard readToken == nil else {
                var error = ServerError.admin(.unauthorized, "this server needs a token to open the console",
                                              hint: "sign in with the read token or the admin token")
                error.headers[.wwwAuthenticate] = "Bearer"
                throw error
            }
            return .open
        }
        if adminToken?.matches(presented) == true { return .admin }
        if readToken?.matches(presented) == true { return .read }
        throw .admin(.forbidden, "this token is not valid on this server",
                     hint: "use the admin token to change values, or the read token to look")
    }

    /// Whether this access may change values.
    var canWrite: Bool { self == .admin }

    /// Why the console is read-only, with what to do about it; `nil` when it can write.
    func readOnlyReason(adminTokenConfigured: Bool) -> String? {
        if canWrite { return nil }
        if !adminTokenConfigured {
            return "Read-only: this server has no admin token. To allow changes, start it with "
                + "SWITCHBOARD_ADMIN_TOKEN set or with --admin-token-file."
        }
        return self == .read
            ? "Read-only: signed in with the read token. Sign in with the admin token to change values."
            : "Read-only: signed in without a token. Sign in with the admin token to change values."
    }
}

/// Lets a request through to the console's data routes only with a token ``ConsoleAccess`` accepts.
struct ConsoleAccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let adminToken: AccessToken?
    let readToken: AccessToken?

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        _ = try ConsoleAccess.of(request, adminToken: adminToken, readToken: readToken)
        return try await next(request, context)
    }
}
