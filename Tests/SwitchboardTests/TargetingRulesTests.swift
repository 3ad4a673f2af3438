import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Switchboard's readable targeting: rules, segments, rollouts, prerequisites, the kill switch, JSONLogic blocks,
/// and their diagnostics.
struct TargetingRulesTests {
    static let definitions = """
        namespace: t
        segments:
          staff:
            - { attribute: email, ends_with: "@example.com" }
        flags:
          ranking:
            type: bool
            default: false
            rules:
              - name: staff
                segment: staff
                serve: true
              - when:
                  - { attribute: country, in: [XX] }
                serve: false
              - when:
                  - { attribute: plan, equals: pro }
                rollout: [{ value: true, weight: 50 }, { value: false, weight: 50 }]
          layout:
            type: string
            variants: { list: list, grid: grid }
            default: list
            requires: { flag: t.ranking, value: true }
            rules:
              - when: [{ attribute: device, equals: tablet }]
                variant: grid
          spellcheck:
            type: bool
            default: true
            enabled: false
          size:
            type: int
            default: 20
            min: 10
            max: 100
            rules:
              - when: [{ attribute: agent, matches: "(?i)mobile" }]
                serve: 10
              - when: [{ attribute: version, semver: ">= 2.1.0" }, { attribute: age, less_than: 30 }]
                serve: 50
              - when: [{ attribute: signup, after: 2026-06-01 }]
                serve: 60
              - when: [{ attribute: beta, exists: true }]
                serve: 70
              - when: [{ attribute: tags, contains: vip }, { attribute: region, not_in: [eu] }]
                serve: 80
          color:
            type: string
            variants: { yellow: "#ff0", blue: "#00f" }
            default: yellow
            targeting: { "if": [{ "starts_with": [{ "var": "locale" }, "de"] }, "blue", null] }
          split:
            type: string
            default: a
            rollout: [{ value: a, weight: 1 }, { value: b, weight: 1 }]
        """

    func board() throws -> (TestProject, Board) {
        let project = makeProject(definitions: Self.definitions)
        return (project, try openBoard(project.flags))
    }

    func context(_ attributes: [String: Value], key: String? = nil) -> EvaluationContext {
        EvaluationContext(targetingKey: key, attributes: attributes)
    }

    @Test func firstMatchingRuleWins() throws {
        let (_, board) = try board()
        #expect(board.resolve("t.ranking", context: context(["email": "a@example.com", "country": "XX"])).value == true)
        let embargo = board.resolve("t.ranking", context: context(["country": "XX"]))
        #expect(embargo.value == false)
        #expect(embargo.reason == .targetingMatch)
        let nobody = board.resolve("t.ranking")
        #expect(nobody.value == false && nobody.reason == .default)
    }

    @Test func rolloutIsStickyAndSplits() throws {
        let (_, board) = try board()
        var trues = 0
        for user in 0..<400 {
            let ctx = context(["plan": "pro"], key: "user-\(user)")
            let first = board.resolve("t.ranking", context: ctx).value
            #expect(board.resolve("t.ranking", context: ctx).value == first)
            if first == true { trues += 1 }
        }
        #expect((140...260).contains(trues), "50% split gave \(trues) of 400")
    }

    @Test func operators() throws {
        let (_, board) = try board()
        let cases: [([String: Value], Int)] = [
            (["agent": "Mozilla Mobile Safari"], 10),
            (["version": "2.3.0", "age": 3], 50),
            (["version": "2.0.9", "age": 3], 20),
            (["version": "2.3.0"], 20),  // a missing number never compares as 0
            (["signup": "2026-07-01T10:00:00Z"], 60),
            (["signup": "2026-05-01"], 20),
            (["beta": false], 70),
            (["tags": ["vip", "x"], "region": "us"], 80),
            (["tags": ["vip"], "region": "eu"], 20),
        ]
        for (attributes, expected) in cases {
            #expect(board.int("t.size", default: -1, context: context(attributes)) == expected, "\(attributes)")
        }
    }

    @Test func prerequisiteGatesTheRules() throws {
        let (_, board) = try board()
        #expect(board.resolve("t.layout", context: context(["device": "tablet"])).value == "list")
        let both = board.resolve("t.layout", context: context(["device": "tablet", "email": "b@example.com"]))
        #expect(both.value == "grid" && both.variant == "grid")
        let explanation = try #require(board.explain("t.layout", context: context(["device": "tablet"])))
        #expect(explanation.targeting == "prerequisite t.ranking = true not met; default served")
    }

    @Test func killSwitchServesTheCallersDefaultAsDisabled() throws {
        let (_, board) = try board()
        let resolution = board.resolve("t.spellcheck")
        #expect(resolution.value == nil && resolution.reason == .disabled && resolution.layer == nil)
        // Typed lookups give the default the caller passed, whatever the definition's default.
        #expect(board.bool("t.spellcheck", default: false) == false)
        #expect(board.bool("t.spellcheck", default: true) == true)
        let details = board.details("t.spellcheck", default: false)
        #expect(details.value == false && details.reason == .disabled && details.errorCode == nil)
        #expect(board.bool("t.spellcheck", default: false, context: context(["plan": "pro"])) == false)
        // An override still wins over a disabled definition.
        try board.set("t.spellcheck", to: true, actor: "t")
        #expect(board.bool("t.spellcheck", default: false) == true)
        #expect(board.resolve("t.spellcheck").reason == .override)
    }

    @Test func aDisabledFlagIsDisabledWhateverItsPrerequisites() throws {
        let project = makeProject(definitions: """
            namespace: t
            flags:
              gate: { type: bool, default: false }
              gated:
                type: bool
                default: true
                enabled: false
                requires: { flag: t.gate, value: true }
            """)
        let board = try openBoard(project.flags)
        // The prerequisite is not met, and the flag is off: off wins, as flagd checks the state first.
        let resolution = board.resolve("t.gated")
        #expect(resolution.value == nil && resolution.reason == .disabled)
        #expect(board.bool("t.gated", default: false) == false)
        #expect(board.explain("t.gated")?.targeting == "disabled: callers get their own default")
    }

    @Test func overridesStillWinOverTargeting() throws {
        let (_, board) = try board()
        try board.set("t.ranking", to: false, actor: "t")
        let resolution = board.resolve("t.ranking", context: context(["email": "a@example.com"]))
        #expect(resolution.value == false && resolution.layer == .runtime)
    }

    @Test func jsonLogicBlockChoosesAVariant() throws {
        let (_, board) = try board()
        #expect(board.string("t.color", default: "", context: context(["locale": "de-AT"])) == "#00f")
        #expect(board.string("t.color", default: "") == "#ff0")
    }

    @Test func explainNamesTheRuleSegmentAndBucket() throws {
        let (_, board) = try board()
        let staff = try #require(board.explain("t.ranking", context: context(["email": "a@example.com"])))
        #expect(staff.targeting == "rule 1 'staff' (segment staff) matched → true")
        let split = try #require(board.explain("t.split", context: context([:], key: "user-1")))
        #expect(split.targeting?.hasPrefix("rollout bucket ") == true)
        #expect(split.targeting?.contains("(weight 1 of 2)") == true)
    }

    func errors(_ yaml: String) -> [String] {
        DefinitionLoader.load(sources: [("r.yaml", Array(yaml.utf8))]).errors.map(\.description)
    }

    @Test func diagnosticsPointAtTheMistake() {
        #expect(errors("""
            flags:
              a:
                type: bool
                default: false
                rules:
                  - when: [{ attribute: x, equal: 1 }]
                    serve: true
            """) == ["r.yaml:6:32: error: unknown operator 'equal'\n  hint: did you mean 'equals'?"])
        #expect(errors("""
            flags:
              a:
                type: bool
                default: false
                rules:
                  - segment: nope
                    serve: true
            """) == ["r.yaml:6:18: error: unknown segment 'nope'\n  hint: define it under a top-level `segments:`"])
        #expect(errors("""
            flags:
              a:
                type: int
                default: 1
                max: 5
                rules:
                  - serve: 9
            """) == ["r.yaml:7:16: error: served value of a: 9 is above the maximum 5 of a\n  hint: at most 5"])
        #expect(errors("""
            flags:
              a:
                type: bool
                default: false
                rollout: [{ value: true, weight: -1 }]
            """).first?.contains("a rollout weight must be a whole number, 0 or more") == true)
    }

    /// A variant's name written where its value goes (`serve:`, a rollout item's `value:`) says to use `variant:`.
    @Test func aVariantsNameServedAsAValueSaysToUseVariant() {
        #expect(errors("""
            flags:
              c:
                type: string
                variants: { control: blue, treatment: green }
                default: control
                rules:
                  - when: [{ attribute: a, equals: 2 }]
                    serve: treatment
                rollout: [{ value: control, weight: 1 }]
            """) == [
                "r.yaml:8:16: error: served value of c: \"treatment\" is not the value of any variant of c\n"
                    + "  hint: 'treatment' is a variant's name: serve it with `variant: treatment`",
                "r.yaml:9:24: error: served value of c: \"control\" is not the value of any variant of c\n"
                    + "  hint: 'control' is a variant's name: serve it with `variant: control`",
            ])
    }

    /// Weights whose sum passes the largest integer are refused like any sum past the allowed one, not a trap that
    /// would stop `validate` and a server reloading the file.
    @Test func rolloutWeightsThatWouldOverflowAreRefused() {
        #expect(errors("""
            flags:
              a:
                type: bool
                default: false
                rollout:
                  - { value: true, weight: 9223372036854775807 }
                  - { value: false, weight: 1 }
            """) == ["r.yaml:6:7: error: the rollout weights of a add up to more than 2147483647\n"
                    + "  hint: weights are shares of the whole: divide them all by the same number"])
    }

    @Test func prerequisiteCyclesAreAnError() {
        let yaml = """
            flags:
              a:
                type: bool
                default: false
                requires: { flag: b, value: true }
              b:
                type: bool
                default: false
                requires: { flag: a, value: true }
            """
        let messages = errors(yaml)
        #expect(messages.contains { $0.contains("prerequisites form a cycle: a → b → a") })
    }

    @Test func unknownPrerequisiteIsAnError() {
        let yaml = "flags:\n  a:\n    type: bool\n    default: false\n    requires: { flag: payments.v2, value: true }\n"
        #expect(errors(yaml) == ["r.yaml:5:23: error: requires unknown flag 'payments.v2'"])
    }

    @Test func requirementsNameVariantsAndMustBePossible() {
        let base = """
            flags:
              color:
                type: string
                variants: { control: blue, treatment: green }
                default: control
              a:
                type: bool
                default: false
                requires: { flag: color, value: treatment }
              b:
                type: bool
                default: false
                requires: { flag: color, value: purple }
            """
        #expect(errors(base) == [
            "r.yaml:13:37: error: required value of color: \"purple\" is not the value of any variant of color\n"
                + "  hint: variants: control (\"blue\"), treatment (\"green\")",
        ])
    }

    @Test func segmentMistakesAreReportedOnceEvenWhenUnused() {
        let yaml = """
            segments:
              broken: [{ attribute: x, equal: 1 }]
            flags:
              a:
                type: bool
                default: false
                rules:
                  - { segment: broken, serve: true }
                  - { segment: broken, serve: false }
              b:
                type: bool
                default: false
            """
        #expect(errors(yaml).count(where: { $0.contains("unknown operator 'equal'") }) == 1)
        let unused = "segments:\n  broken: [{ attribute: x, equal: 1 }]\nflags: {}\n"
        #expect(errors(unused).count == 1)
    }

    @Test func variantValuesMeetTheConstraints() {
        let yaml = "flags:\n  n:\n    type: int\n    max: 10\n    variants: { low: 1, high: 1000 }\n    default: low\n"
        #expect(errors(yaml).first?.hasPrefix("r.yaml:5:31: error: variant 'high' of n: 1000 is above the maximum 10") == true)
    }
}
