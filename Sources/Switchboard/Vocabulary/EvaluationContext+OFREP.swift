extension EvaluationContext {
    /// Why an OFREP request body gives no context: the error code OFREP answers with and what was wrong.
    public struct RequestBodyProblem: Error, Sendable, Hashable {
        /// ``ErrorCode/parseError`` for a body that is not JSON, ``ErrorCode/invalidContext`` for one that is not
        /// an object or whose `context` is not an object.
        public var code: ErrorCode
        /// What was wrong, for OFREP's `errorDetails`.
        public var details: String

        /// Creates a problem.
        public init(code: ErrorCode, details: String) {
            self.code = code
            self.details = details
        }
    }

    /// Reads the context from the body of an OFREP evaluation request, `{"context": {"targetingKey": "user-1", …}}`.
    ///
    /// Lenient where clients differ and strict where a mistake would silently change an answer:
    /// - an empty body, `{}` (what the Python provider sends for an empty context) or `"context": null` is the
    ///   empty context;
    /// - a body that is not JSON is a `PARSE_ERROR`; a body that is not an object or a `context` that is not an
    ///   object is an `INVALID_CONTEXT`.
    /// - a `targetingKey` that is not a string is no targeting key but stays an attribute, which is what flagd does
    ///   (its conformance cases expect a rollout to fall back to the default variant then, not an error).
    ///
    /// `switchboard serve` answers a problem with a 400 in OFREP's `evaluationFailure` shape.
    public init(ofrepRequestBody body: [UInt8]) throws(RequestBodyProblem) {
        guard body.contains(where: { !Self.isJSONWhitespace($0) }) else {
            self = .empty
            return
        }
        let root: Value
        do {
            root = try Value(jsonBytes: body)
        } catch {
            throw RequestBodyProblem(code: .parseError, details: "the request body is not valid JSON: \(error)")
        }
        guard case .object(let request) = root else {
            throw RequestBodyProblem(code: .invalidContext,
                                     details: "the request body must be a JSON object such as {\"context\": {}}")
        }
        switch request["context"] {
        case nil, .null?:
            self = .empty
        case .object(let attributes)?:
            self.init(attributes: attributes)
            if case .string(let targetingKey)? = attributes["targetingKey"] {
                // The targeting key travels in its own field, as a library caller passes it; rules that read it by
                // name get it from there.
                self.targetingKey = targetingKey
                self.attributes["targetingKey"] = nil
            }
        case let other?:
            throw RequestBodyProblem(code: .invalidContext,
                                     details: "\"context\" must be an object, not \(other.kindDescription)")
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
