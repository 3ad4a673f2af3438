import Testing
@testable import Switchboard

/// A rule with no `when` and no `segment` matches everyone: the rules after it, and the rollout, never run. That is
/// a warning at the first of them (the definition still loads and serves as written), never an error.
struct UnreachableRuleTests {
    static func load(_ rules: String, rollout: String = "") -> LoadReport {
        let yaml = "flags:\n  both:\n    type: string\n    default: x\n    rules:\n" + rules + rollout
        return DefinitionLoader.load(sources: [("r.yaml", Array(yaml.utf8))])
    }

    @Test func rulesAfterACatchAllAreWarnedAbout() throws {
        let report = Self.load("""
                  - serve: q
                  - when: [{ attribute: a, equals: 1 }]
                    serve: s
                  - when: [{ attribute: a, equals: 2 }]
                    serve: t

            """)
        #expect(report.errors.isEmpty)
        #expect(report.warnings.map(\.description) == [
            "r.yaml:7:9: warning: rules 2–3 of both never run: rule 1 has no `when` or `segment`, so it matches "
                + "everyone\n  hint: give rule 1 a condition, or move it last",
        ])
        let definition = try #require(report.registry.definitions.first)
        #expect(definition.targeting != nil)
    }

    @Test(arguments: [
        ("      - when: []\n        serve: q\n      - serve: r\n", "",
         "r.yaml:8:9: warning: rule 2 of both never runs: rule 1 has no `when` or `segment`"),
        ("      - serve: q\n", "    rollout: [{ value: y, weight: 1 }]\n",
         "r.yaml:7:14: warning: the rollout of both never runs: rule 1 has no `when` or `segment`"),
        ("      - serve: q\n      - serve: r\n", "    rollout: [{ value: y, weight: 1 }]\n",
         "r.yaml:7:9: warning: rule 2 and the rollout of both never run: rule 1 has no `when` or `segment`"),
    ])
    func whatNeverRunsIsNamed(rules: String, rollout: String, warning: String) {
        let warnings = Self.load(rules, rollout: rollout).warnings.map(\.description)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix(warning) == true, "\(warnings)")
    }

    @Test func aCatchAllLastIsNoMistake() {
        let report = Self.load("      - when: [{ attribute: a, equals: 1 }]\n        serve: s\n      - serve: q\n")
        #expect(report.diagnostics.isEmpty)
    }
}
