import Foundation
import Switchboard
import SwitchboardReview
import Testing

/// Impact counts on a fixed population are exact, and equal to evaluating each context on each side by hand.
@Suite struct ImpactTests {
    static let base = """
        flags:
          beta:
            type: bool
            default: false
            rules:
              - name: pro
                when: [{ attribute: plan, equals: pro }]
                serve: true
          ranking:
            type: bool
            default: false
            rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]

        """

    /// 10 contexts: 3 on plan pro, 2 on team, 5 on free.
    static let population = Population(contexts: (0..<10).map { index in
        EvaluationContext(targetingKey: "user-\(index)",
                          attributes: ["plan": .string(index < 3 ? "pro" : index < 5 ? "team" : "free")])
    })

    @Test func aRuleThatMatchesMoreContexts() throws {
        let head = Self.base.replacingOccurrences(of: "equals: pro", with: "in: [pro, team]")
        let result = try review(Self.base, head, population: Self.population)
        let impact = try #require(result.changes.first { $0.key == "beta" }?.impact)
        #expect(impact == Impact(contexts: 10, changed: 2, before: ["true": 3, "false": 7],
                                 after: ["true": 5, "false": 5]))
    }

    @Test func aRolloutMatchesTheEngineContextByContext() throws {
        let head = Self.base.replacingOccurrences(of: "weight: 10 }, { value: false, weight: 90",
                                                  with: "weight: 50 }, { value: false, weight: 50")
        let contexts = (0..<2_000).map { EvaluationContext(targetingKey: "user-\($0)") }
        let result = try review(Self.base, head, population: Population(contexts: contexts))
        let impact = try #require(result.changes.first { $0.key == "ranking" }?.impact)
        let before = try side("base", Self.base).snapshot, after = try side("head", head).snapshot
        var expected = Impact(contexts: contexts.count, changed: 0, before: [:], after: [:])
        for context in contexts {
            let old = before.resolve("ranking", context: context).value
            let new = after.resolve("ranking", context: context).value
            expected.before[Impact.label(for: old), default: 0] += 1
            expected.after[Impact.label(for: new), default: 0] += 1
            if old != new { expected.changed += 1 }
        }
        #expect(impact == expected)
        // Moving buckets from false to true only ever turns false into true.
        #expect(impact.changed == impact.after["true", default: 0] - impact.before["true", default: 0])
        #expect(impact.before["true", default: 0] > 100 && impact.before["true", default: 0] < 300)
    }

    @Test func aDisabledFlagServesTheCallersDefault() throws {
        let head = Self.base.replacingOccurrences(of: "  beta:\n", with: "  beta:\n    enabled: false\n")
        let result = try review(Self.base, head, population: Self.population)
        let impact = try #require(result.changes.first { $0.key == "beta" }?.impact)
        #expect(impact == Impact(contexts: 10, changed: 10, before: ["true": 3, "false": 7],
                                 after: [Impact.callerDefault: 10]))
    }

    @Test func fieldsThatServeNothingHaveNoImpact() throws {
        let head = Self.base.replacingOccurrences(of: "  ranking:\n", with: "  ranking:\n    owner: search\n")
        let result = try review(Self.base, head, population: Self.population)
        #expect(result.changes.map(\.fields) == [["owner"]])
        #expect(result.changes.first?.impact == nil)
    }

    @Test func theImpactLineReadsAsTheIssueShowsIt() throws {
        let impact = Impact(contexts: 10_000, changed: 4_012, before: ["true": 1_003, "false": 8_997],
                            after: ["true": 5_015, "false": 4_985])
        let text = try review(Self.base, Self.base).impactText(impact)
        #expect(text == "4,012 of 10,000 contexts change: false 90% (8,997), true 10% (1,003) → "
                    + "true 50% (5,015), false 50% (4,985)")
    }
}
