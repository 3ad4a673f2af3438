import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `explain` tells what happened: a rule that matched but whose rollout needed a targeting key says so, a value
/// a rule served points at that rule, and a disabled flag says what callers get.
struct ExplainTargetingTests {
    static let definitions = """
        namespace: search
        segments:
          staff:
            - { attribute: email, ends_with: "@example.com" }
        flags:
          new_ranking:
            type: bool
            default: false
            rules:
              - name: staff first
                segment: staff
                serve: true
              - name: beta
                when:
                  - { attribute: plan, in: [pro] }
                rollout:
                  - { value: true, weight: 50 }
                  - { value: false, weight: 50 }
            rollout:
              - { value: true, weight: 10 }
              - { value: false, weight: 90 }
          spellcheck:
            type: bool
            default: false
            enabled: false
        """

    private func explain(_ key: String, _ context: EvaluationContext) throws -> Explanation {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        return try #require(board.explain(key, context: context))
    }

    @Test func aMatchedRuleWhoseRolloutNeedsATargetingKeySaysSo() throws {
        let explanation = try explain("search.new_ranking", EvaluationContext(attributes: ["plan": "pro"]))
        #expect(explanation.targeting
            == "rule 2 'beta' matched; its rollout needs a targeting key, so the flag's default was served")
    }

    @Test func theFlagsOwnRolloutWithoutATargetingKeySaysSo() throws {
        let explanation = try explain("search.new_ranking", .empty)
        #expect(explanation.targeting
            == "no rule matched; the flag's rollout needs a targeting key, so its default was served")
    }

    @Test func aValueServedByARulePointsAtTheRule() throws {
        let explanation = try explain("search.new_ranking", EvaluationContext(attributes: ["email": "ana@example.com"]))
        let row = try #require(explanation.steps.first { $0.layer == .default })
        #expect(row.value == true && row.status == .winner)
        #expect(row.origin?.hasSuffix("/flags/app.yaml:10:9 targeting (rule 1 'staff first')") == true)
    }

    @Test func aRolloutBucketOfARuleIsNamedWithTheRule() throws {
        let explanation = try explain("search.new_ranking",
                                      EvaluationContext(targetingKey: "u1", attributes: ["plan": "pro"]))
        let row = try #require(explanation.steps.first { $0.layer == .default })
        #expect(row.origin?.contains("/flags/app.yaml:13:9 targeting (rule 2 'beta', rollout bucket ") == true)
    }

    @Test func aDisabledFlagSaysWhatCallersGet() throws {
        let explanation = try explain("search.spellcheck", .empty)
        #expect(explanation.targeting == "disabled: callers get their own default")
        let row = try #require(explanation.steps.first { $0.layer == .default })
        #expect(row.value == nil && row.status == .absent)
    }
}
