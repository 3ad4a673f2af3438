import HTTPTypes
import Hummingbird

/// The headers every console response carries: the page may run only the server's own script and styles, may not
/// be framed, and leaks no address to other sites.
///
/// | header | value |
/// |---|---|
/// | `Content-Security-Policy` | ``contentSecurityPolicy``: no inline script, no `eval`, no other origin |
/// | `X-Content-Type-Options` | `nosniff` |
/// | `Referrer-Policy` | `no-referrer` |
/// | `X-Frame-Options` | `DENY` (for browsers older than `frame-ancestors`) |
enum ConsoleHeaders {
    /// Only this server's scripts, styles, images and connections; nothing inline, no plugins, no forms, no base
    /// URL changes, and no framing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let contentSecurityPolicyName = HTTPField.Name("Content-Security-Policy")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    /// Adds the headers to a response's.
    static func add(to headers: inout HTTPFields) {
        headers[contentSecurityPolicyName] = contentSecurityPolicy
        headers[contentTypeOptions] = "nosniff"
        headers[referrerPolicy] = "no-referrer"
        headers[frameOptions] = "DENY"
    }
}

/// Puts ``ConsoleHeaders`` on every response of the routes it guards, refusals included, and keeps their data out of
/// caches.
struct ConsoleHeadersMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        var response = try await Response.answer(to: request, context: context, next: next)
        ConsoleHeaders.add(to: &response.headers)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
