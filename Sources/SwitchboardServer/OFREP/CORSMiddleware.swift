import HTTPTypes
import Hummingbird

/// Lets pages on the ``AllowedOrigins`` read OFREP answers: a browser's preflight (`OPTIONS` with
/// `Access-Control-Request-Method`) is answered here, before any access check, since a browser sends it without
/// the page's credentials; every other answer to an allowed origin, refusals and event streams included, gets
/// `Access-Control-Allow-Origin`, so that a page can read a 401 or a 429 as well as a value. A request from any
/// other origin passes through untouched, and the browser keeps its answer from the page.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let origins: AllowedOrigins

    /// What a page may send beyond the simple headers: the OFREP credentials, a JSON body, the bulk ETag and an
    /// event stream's resume point. A preflight that names others gets those named back.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match, Last-Event-ID, X-API-Key"
    /// What a page may read beyond the simple response headers: the bulk answer's ETag and a 429's wait.
    static let exposedHeaders = "ETag, Retry-After"
    /// How long a browser may reuse a preflight's answer, in seconds.
    static let maxAge = "600"

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        guard let origin = request.headers[.origin], let allowed = origins.allowOrigin(for: origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, POST"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders]
                ?? Self.allowedHeaders
            response.headers[.accessControlMaxAge] = Self.maxAge
            Self.allow(allowed, in: &response.headers)
            return response
        }
        var response = try await Response.answer(to: request, context: context, next: next)
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        Self.allow(allowed, in: &response.headers)
        return response
    }

    /// The origin's permission, and `Vary: Origin` when the answer names it, so that a cache keeps one answer per
    /// origin.
    private static func allow(_ allowed: String, in headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = allowed
        if allowed != "*" { headers.append(HTTPField(name: .vary, value: "Origin")) }
    }
}
