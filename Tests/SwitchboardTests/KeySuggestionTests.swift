import Switchboard
import Testing

/// What "did you mean" offers for a key no definition has: the flag's new name for a key it was renamed from, the
/// key in its own letter case, then the keys a typo away.
struct KeySuggestionTests {
    let registry: Registry

    init() throws {
        let yaml = """
            namespace: checkout
            flags:
              express_pay: { type: bool, default: true, renamed_from: [checkout.quick_pay] }
              express_payment_limit: { type: int, default: 5 }
              new_flow: { type: bool, default: false }
            """
        let report = DefinitionLoader.load(sources: [(path: "checkout.yaml", bytes: Array(yaml.utf8))])
        #expect(!report.hasErrors)
        registry = report.registry
    }

    @Test func aRenamedKeySuggestsItsNewName() {
        #expect(registry.suggestions(for: "checkout.quick_pay") == ["checkout.express_pay"])
    }

    @Test func aKeyInAnotherLetterCaseSuggestsTheKey() {
        #expect(registry.suggestions(for: "CHECKOUT.NEW_FLOW") == ["checkout.new_flow"])
        // Once, though it is also a typo's distance away.
        #expect(registry.suggestions(for: "Checkout.Express_Pay") == ["checkout.express_pay"])
    }

    @Test func aTypoSuggestsTheNearestKeys() {
        #expect(registry.suggestions(for: "checkout.new_flw") == ["checkout.new_flow"])
        #expect(registry.suggestions(for: "nothing.like.it").isEmpty)
    }
}
