import SwitchboardReferences
import Testing

/// What `Retirement` refuses, with a message that names the reason, before it changes anything.
struct RetireRefusalTests {
    @Test func aKeyAnotherDefinitionRequiresIsRefused() throws {
        let fixture = try RetireFixture()
        #expect(throws: Retirement.Refusal(message: "checkout.payments_v2 is required by checkout.wallet",
                                           hint: "retire or edit the definitions that `requires` it first")) {
            try fixture.plan("checkout.payments_v2", keep: "true")
        }
    }

    @Test func aValueThatDoesNotFitIsRefused() throws {
        let fixture = try RetireFixture()
        #expect(throws: Retirement.Refusal(
            message: "--keep maybe: expected a bool, found the string \"maybe\"",
            hint: "--keep takes what the code should get from now on, a bool")) {
            try fixture.plan("checkout.new_flow", keep: "maybe")
        }
        #expect(throws: Retirement.Refusal.self) { try fixture.plan("checkout.button_color", keep: "purple") }
    }

    @Test func anUnknownKeyGetsADidYouMean() throws {
        let fixture = try RetireFixture()
        do {
            _ = try fixture.plan("checkout.new_flwo", keep: "true")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.message == "no definition has the key checkout.new_flwo")
            #expect(error.hint == "did you mean checkout.new_flow?")
        }
    }
}
