import HTTPTypes
import Hummingbird
import Switchboard

/// A refusal that knows its response: an HTTP status and a JSON body in the shape of the API that refused.
///
/// OFREP routes answer `{"key": …, "errorCode": …, "errorDetails": …}` as the spec's `evaluationFailure`; the
/// admin API answers `{"error": …, "hint": …}`, as `switchboard set --json` does.
struct ServerError: HTTPResponseError {
    /// The status.
    var status: HTTPResponse.Status
    /// The JSON body.
    var body: Value
    /// Extra headers, such as `WWW-Authenticate` on a 401.
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(body.json, status: status, headers: headers)
    }

    /// An OFREP failure. `errorDetails` is always present: strict clients read it unconditionally.
    static func ofrep(
        _ status: HTTPResponse.Status, code: String, details: String, key: String? = nil
    ) -> ServerError {
        var object: [String: Value] = ["errorCode": .string(code), "errorDetails": .string(details)]
        if let key { object["key"] = .string(key) }
        return ServerError(status: status, body: .object(object))
    }

    /// An admin API failure.
    static func admin(
        _ status: HTTPResponse.Status, _ message: String, hint: String? = nil, suggestions: [String] = []
    ) -> ServerError {
        var object: [String: Value] = ["error": .string(message)]
        if let hint { object["hint"] = .string(hint) }
        if !suggestions.isEmpty { object["suggestions"] = .list(suggestions.map(Value.string)) }
        return ServerError(status: status, body: .object(object))
    }

    /// A handler for the methods a path does not take: 405 with `Allow` naming those it does and the body `failure`
    /// makes of the message (`POST is not allowed here; use PUT or DELETE`), instead of the router's empty 404 that
    /// reads as "no such key". The body is an admin error unless `failure` shapes it otherwise (OFREP's).
    static func methodNotAllowed(
        allow: [HTTPRequest.Method],
        _ failure: @escaping @Sendable (String) -> ServerError = { .admin(.methodNotAllowed, $0) }
    ) -> @Sendable (Request, ServerContext) async throws -> Response {
        let names = allow.map(\.rawValue)
        return { request, _ in
            var error = failure("\(request.method) is not allowed here; use \(names.joined(separator: " or "))")
            error.headers[.allow] = names.joined(separator: ", ")
            throw error
        }
    }
}

extension Response {
    /// What `next` answers for `request`, with a thrown refusal that knows its response (``ServerError`` and
    /// Hummingbird's own) turned into that response here rather than later by the router, so that a middleware
    /// sees it. Any other error is thrown on.
    static func answer(
        to request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }

    /// A JSON response from text that is already JSON.
    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        json(ByteBuffer(string: text), status: status, headers: headers)
    }

    /// A JSON response from bytes that are already JSON.
    static func json(_ bytes: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    /// A plain-text response.
    static func text(
        _ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: [.contentType: contentType],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
