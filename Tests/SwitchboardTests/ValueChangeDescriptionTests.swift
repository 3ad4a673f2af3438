import Switchboard
import Testing

/// A change prints as one line a log can hold, not as the nested struct.
struct ValueChangeDescriptionTests {
    @Test func aChangeReadsAsOneLine() {
        let set = ValueChange(of: "app.greeting", from: .string("hello"),
                              to: Resolution(value: .string("hey there"), reason: .static, layer: .runtime),
                              revision: 2)
        #expect("\(set)" == "app.greeting: hello → hey there (runtime, revision 2)")
        let removed = ValueChange(of: "app.gone", from: .int(3), to: nil)
        #expect("\(removed)" == "app.gone: 3 → —")
    }
}
