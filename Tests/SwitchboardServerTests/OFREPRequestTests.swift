import HTTPTypes
import Switchboard
@testable import SwitchboardServer
import Testing

/// The server's answer to a request body that gives no context: a 400 in OFREP's `evaluationFailure` shape, with
/// the flag's key when there is one. What a body gives is `EvaluationContext(ofrepRequestBody:)`'s
/// (OFREPRequestBodyTests).
@Suite struct OFREPRequestTests {
    private func refusal(_ body: String, key: String?) -> ServerError? {
        do throws(ServerError) {
            _ = try OFREPRequest.context(from: Array(body.utf8), key: key)
            return nil
        } catch {
            return error
        }
    }

    @Test func namesTheKeyAndTheProblem() throws {
        let error = try #require(refusal(#"{"context":[1]}"#, key: "k"))
        #expect(error.status == .badRequest)
        #expect(error.body == [
            "key": "k", "errorCode": "INVALID_CONTEXT", "errorDetails": "\"context\" must be an object, not a list",
        ])
    }

    @Test func aBulkRefusalHasNoKey() throws {
        let error = try #require(refusal("[1]", key: nil))
        #expect(error.status == .badRequest)
        #expect(error.body == [
            "errorCode": "INVALID_CONTEXT",
            "errorDetails": "the request body must be a JSON object such as {\"context\": {}}",
        ])
    }

    @Test func aBodyThatIsNotJSONIsAParseError() throws {
        let error = try #require(refusal("not json", key: "k"))
        #expect(error.status == .badRequest)
        #expect(error.body.objectValue?["errorCode"] == "PARSE_ERROR")
    }
}
