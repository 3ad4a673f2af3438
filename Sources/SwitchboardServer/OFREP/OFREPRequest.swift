import HTTPTypes
import Switchboard

/// The body of an OFREP evaluation request, `{"context": {"targetingKey": "user-1", …}}`, as an
/// `EvaluationContext`.
///
/// Lenient where clients differ and strict where a mistake would silently change an answer:
/// - an empty body, `{}` (what the Python provider sends for an empty context) or `"context": null` is the
///   empty context;
/// - a body that is not JSON is a `PARSE_ERROR`; a body that is not an object or a `context` that is not an
///   object is an `INVALID_CONTEXT`. Both are 400.
/// - a `targetingKey` that is not a string is no targeting key but stays an attribute, which is what flagd does
///   (its conformance cases expect a rollout to fall back to the default variant then, not an error).
enum OFREPRequest {
    /// Reads the context from a request body.
    ///
    /// - Parameter key: the flag key, for the error body of a single evaluation (`nil` in bulk).
    static func context(from body: [UInt8], key: String?) throws(ServerError) -> EvaluationContext {
        guard body.contains(where: { !Self.isWhitespace($0) }) else { return .empty }
        let root: Value
        do {
            root = try Value(jsonBytes: body)
        } catch {
            throw .ofrep(.badRequest, code: "PARSE_ERROR", details: "the request body is not valid JSON: \(error)",
                         key: key)
        }
        guard case .object(let request) = root else {
            throw .ofrep(.badRequest, code: "INVALID_CONTEXT",
                         details: "the request body must be a JSON object such as {\"context\": {}}", key: key)
        }
        let attributes: [String: Value]
        switch request["context"] {
        case nil, .null?: return .empty
        case .object(let object)?: attributes = object
        case let other?:
            throw .ofrep(.badRequest, code: "INVALID_CONTEXT",
                         details: "\"context\" must be an object, not \(other.kindDescription)", key: key)
        }
        var context = EvaluationContext(attributes: attributes)
        if case .string(let targetingKey)? = attributes["targetingKey"] {
            // The targeting key travels in its own field, as a library caller passes it; rules that read it by
            // name get it from there.
            context.targetingKey = targetingKey
            context.attributes["targetingKey"] = nil
        }
        return context
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
