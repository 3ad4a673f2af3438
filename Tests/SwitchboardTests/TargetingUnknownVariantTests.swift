import Testing
@testable import Switchboard
import YAML

/// A definition's JSONLogic `targeting` that can give a name no variant has is warned about at load, as a flagd
/// file's is: every evaluation that reaches it fails.
struct TargetingUnknownVariantTests {
    @Test func aNameThatIsNoVariantIsWarnedAboutWhereItIs() throws {
        let yaml = """
            flags:
              f:
                type: string
                variants: {x: "1", yes: "2"}
                default: x
                targeting: { "if": [true, "nope", "yse"] }
            """
        let report = DefinitionLoader.load(sources: [(path: "x.yaml", bytes: Array(yaml.utf8))])
        #expect(!report.hasErrors)
        let warnings = report.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.message) == [
            "targeting of flag 'f' can give 'nope', which is not a variant",
            "targeting of flag 'f' can give 'yse', which is not a variant",
        ])
        #expect(warnings.map { $0.location?.line } == [6, 6])
        #expect(warnings.last?.hint == "did you mean 'yes'?")
    }

    @Test func namesThatAreVariantsAreNot() {
        let yaml = """
            flags:
              f:
                type: string
                variants: {x: "1", y: "2"}
                default: x
                targeting: { "if": [{ "==": [{ "var": "plan" }, "pro"] }, "y", "x"] }
            """
        let report = DefinitionLoader.load(sources: [(path: "x.yaml", bytes: Array(yaml.utf8))])
        #expect(report.diagnostics.isEmpty)
    }
}
