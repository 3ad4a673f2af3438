import Switchboard
import Testing

/// `EvaluationContext(ofrepRequestBody:)`: what an OFREP evaluation request's body gives, and what it refuses.
@Suite struct OFREPRequestBodyTests {
    private func context(_ body: String) throws(EvaluationContext.RequestBodyProblem) -> EvaluationContext {
        try EvaluationContext(ofrepRequestBody: Array(body.utf8))
    }

    private func errorCode(_ body: String) -> ErrorCode? {
        do throws(EvaluationContext.RequestBodyProblem) {
            _ = try context(body)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: ["", "  \n", "{}", #"{"context":null}"#, #"{"context":{}}"#])
    func readsAnEmptyContext(body: String) throws {
        #expect(try context(body) == .empty)
    }

    @Test func separatesTheTargetingKeyFromTheAttributes() throws {
        let parsed = try context(#"{"context":{"targetingKey":"user-1","plan":"pro","age":29,"beta":true}}"#)
        #expect(parsed.targetingKey == "user-1")
        #expect(parsed.attributes == ["plan": "pro", "age": 29, "beta": true])
    }

    @Test func keepsATargetingKeyThatIsNoStringAsAnAttribute() throws {
        let parsed = try context(#"{"context":{"targetingKey":12345}}"#)
        #expect(parsed.targetingKey == nil)
        #expect(parsed.attributes == ["targetingKey": 12345])
    }

    @Test func ignoresOtherMembersOfTheBody() throws {
        #expect(try context(#"{"context":{"a":1},"extra":[1]}"#).attributes == ["a": 1])
    }

    @Test(arguments: [
        ("{", ErrorCode.parseError),
        ("not json", .parseError),
        ("[1]", .invalidContext),
        ("\"text\"", .invalidContext),
        (#"{"context":[1]}"#, .invalidContext),
        (#"{"context":"user"}"#, .invalidContext),
    ])
    func refusesMalformedBodies(body: String, code: ErrorCode) {
        #expect(errorCode(body) == code)
    }
}
