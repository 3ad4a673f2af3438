import Switchboard
import SwitchboardTerminal
import SwitchboardREPL
import Testing

struct EvaluationContextParsingTests {
    @Test func valuesAreTypedAsYAMLScalars() {
        let context = EvaluationContext.parse(
            ["plan=pro", "seats=42", "ratio=1.5", "beta=true", "gone=null", "answer=yes", "targetingKey=user-1"])
        #expect(context.targetingKey == "user-1")
        #expect(context.attributes == [
            "plan": "pro", "seats": 42, "ratio": 1.5, "beta": true, "gone": .null, "answer": "yes",
        ])
    }

    @Test func quotedTextStaysText() {
        var context = EvaluationContext()
        context.assign("code", text: "42", quoted: true)
        context.assign("count", text: "42")
        #expect(context.attributes == ["code": "42", "count": 42])
    }

    @Test func itemsWithoutAnEqualsSignAreSkipped() {
        #expect(EvaluationContext.parse(["plan"], targetingKey: "k") == EvaluationContext(targetingKey: "k"))
    }
}
