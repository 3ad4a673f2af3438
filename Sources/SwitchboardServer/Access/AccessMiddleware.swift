import HTTPTypes
import Hummingbird
import Switchboard

/// Lets a request through to a group of routes only with the right token.
///
/// A request with no credentials gets 401 (with `WWW-Authenticate`), one with a wrong token 403. The admin API
/// takes only `Authorization: Bearer`; OFREP also takes `X-API-Key`, the spec's other scheme, and is open when
/// no read token is configured.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Which routes the middleware guards.
    enum Scope {
        /// OFREP evaluation and its event stream.
        case read
        /// The admin API.
        case admin
    }

    let scope: Scope
    let adminToken: AccessToken?
    let readToken: AccessToken?

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        switch scope {
        case .read:
            guard let readToken else { return try await next(request, context) }
            let presented = Self.bearer(in: request) ?? request.headers[Self.apiKey]
            guard let presented else { throw refusal(.unauthorized, "this server needs a read token") }
            guard readToken.matches(presented) || adminToken?.matches(presented) == true else {
                throw refusal(.forbidden, "the token is not valid here")
            }
        case .admin:
            guard let adminToken else {
                throw refusal(.forbidden, "the admin API is off: no admin token is configured",
                              hint: "set SWITCHBOARD_ADMIN_TOKEN or pass --admin-token-file when starting the server")
            }
            guard let presented = Self.bearer(in: request) else {
                throw refusal(.unauthorized, "the admin API needs 'Authorization: Bearer <token>'")
            }
            guard adminToken.matches(presented) else { throw refusal(.forbidden, "the admin token is not valid") }
        }
        return try await next(request, context)
    }

    private func refusal(_ status: HTTPResponse.Status, _ message: String, hint: String? = nil) -> ServerError {
        var error: ServerError = switch scope {
        case .read: .ofrep(status, code: "GENERAL", details: message)
        case .admin: .admin(status, message, hint: hint)
        }
        if status == .unauthorized { error.headers[.wwwAuthenticate] = "Bearer" }
        return error
    }

    static let apiKey = HTTPField.Name("X-API-Key")!

    /// The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive (RFC 9110 §11.1).
    static func bearer(in request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else { return nil }
        return String(header.dropFirst(scheme.count).drop(while: { $0 == " " }))
    }
}
