import HTTPTypes
import Hummingbird
import Switchboard

/// Lets a request through to a group of routes only with a credential ``AccessControl`` accepts, and tells the
/// routes who sent it (`ServerContext.principal`).
///
/// A request without a needed credential, or with one that is not valid here, gets 401 (with `WWW-Authenticate`);
/// a person whom no group gives a role 403 (``AccessControl/principal(of:context:scope:)``). The admin API and the
/// console take `Authorization: Bearer`; OFREP also takes `X-API-Key`, the spec's other scheme. What a principal
/// may write is checked by the routes that write.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let access: AccessControl
    let scope: AccessControl.Scope

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.principal = try await access.principal(of: request, context: context, scope: scope)
        return try await next(request, context)
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
