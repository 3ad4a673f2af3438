import HTTPTypes
import Switchboard

/// The body of an OFREP evaluation request as an `EvaluationContext`, or the 400 that refuses it
/// (``EvaluationContext/init(ofrepRequestBody:)`` says what is read and what is refused).
enum OFREPRequest {
    /// Reads the context from a request body.
    ///
    /// - Parameter key: the flag key, for the error body of a single evaluation (`nil` in bulk).
    static func context(from body: [UInt8], key: String?) throws(ServerError) -> EvaluationContext {
        do {
            return try EvaluationContext(ofrepRequestBody: body)
        } catch {
            throw .ofrep(.badRequest, code: error.code.rawValue, details: error.details, key: key)
        }
    }
}
