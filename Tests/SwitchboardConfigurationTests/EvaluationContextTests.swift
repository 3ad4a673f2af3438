import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing

/// Targeted values are evaluated for the provider's fixed context, with a key's context on top.
@Suite struct EvaluationContextTests {
    @Test func withoutAContextTheEmptyContextsValue() throws {
        let (config, board) = try TestBoard.reader()
        #expect(config.bool(forKey: "app.beta_banner") == false)
        #expect(config.bool(forKey: "app.beta_banner") == board.bool("app.beta_banner", default: true))
    }

    @Test func theFixedContextIsUsedForEveryRead() throws {
        let (config, _) = try TestBoard.reader(context: EvaluationContext(attributes: ["plan": "pro"]))
        #expect(config.bool(forKey: "app.beta_banner") == true)
        #expect(config.snapshot().bool(forKey: "app.beta_banner") == true)
    }

    @Test func aKeysContextAddsAttributesAndTheTargetingKey() throws {
        let (config, _) = try TestBoard.reader(context: EvaluationContext(attributes: ["plan": "free"]))
        #expect(config.bool(forKey: "app.beta_banner") == false)
        #expect(config.bool(forKey: ConfigKey("app.beta_banner", context: ["plan": "pro"])) == true)
        #expect(config.bool(forKey: ConfigKey("app.beta_banner", context: ["targetingKey": "staff-1"])) == true)
    }

    @Test func overridesApplyWhateverTheContext() throws {
        let (config, board) = try TestBoard.reader(context: EvaluationContext(attributes: ["plan": "pro"]))
        try board.set("app.beta_banner", to: false, actor: "test")
        #expect(config.bool(forKey: "app.beta_banner") == false)
    }
}
