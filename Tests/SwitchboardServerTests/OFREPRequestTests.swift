import HTTPTypes
import Switchboard
@testable import SwitchboardServer
import Testing

@Suite struct OFREPRequestTests {
    private func context(_ body: String) throws(ServerError) -> EvaluationContext {
        try OFREPRequest.context(from: Array(body.utf8), key: "k")
    }

    private func errorCode(_ body: String) -> String? {
        do throws(ServerError) {
            _ = try context(body)
            return nil
        } catch {
            #expect(error.status == .badRequest)
            return error.body.objectValue?["errorCode"]?.stringValue
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
        ("{", "PARSE_ERROR"),
        ("not json", "PARSE_ERROR"),
        ("[1]", "INVALID_CONTEXT"),
        ("\"text\"", "INVALID_CONTEXT"),
        (#"{"context":[1]}"#, "INVALID_CONTEXT"),
        (#"{"context":"user"}"#, "INVALID_CONTEXT"),
    ])
    func refusesMalformedBodies(body: String, code: String) {
        #expect(errorCode(body) == code)
    }

    @Test func namesTheKeyAndTheProblem() throws {
        do throws(ServerError) {
            _ = try context(#"{"context":[1]}"#)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.body == [
                "key": "k", "errorCode": "INVALID_CONTEXT",
                "errorDetails": "\"context\" must be an object, not a list",
            ])
        }
    }
}
