import Foundation
import Switchboard
import SwitchboardReview
import SwitchboardTerminal
import Testing

/// A schedule's steps are measured too: an edit to a step still to come is no "no change", and the impact now is
/// that of the step in force now, not of the definition as written before its first step.
@Suite struct ScheduledImpactTests {
    /// 2026-12-01T09:00:00Z and 2026-12-03T09:00:00Z, the steps below; the review is made between them or before.
    static let monday = 1_796_115_600.0, wednesday = 1_796_288_400.0

    static let base = """
        flags:
          launch:
            type: bool
            default: false
            schedule:
              - at: 2026-12-01T09:00:00Z
                serve: true
              - at: 2026-12-03T09:00:00Z
                rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]

        """

    static let population = Population(contexts: (0..<1_000).map { EvaluationContext(targetingKey: "user-\($0)") })

    func review(head: String, at now: Double) throws -> Review {
        Review(base: try side("base", Self.base), head: try side("head", head), population: Self.population,
               at: now)
    }

    @Test func aStepStillToComeIsMeasuredFromItsTime() throws {
        let head = Self.base.replacingOccurrences(of: "weight: 10 }, { value: false, weight: 90",
                                                  with: "weight: 25 }, { value: false, weight: 75")
        let result = try review(head: head, at: Self.monday + 3600)
        let change = try #require(result.changes.first { $0.key == "launch" })
        // Now both serve the first step, true to all.
        #expect(change.impact?.changed == 0)
        #expect(change.impact?.after == ["true": 1_000])
        let later = try #require(change.laterImpacts.first)
        #expect(change.laterImpacts.count == 1)
        #expect(later.at == Self.wednesday)
        #expect(later.impact.changed > 100 && later.impact.changed < 200, "\(later.impact)")
        #expect(result.text(terminal: Terminal(fd: 1, colors: false)).contains(
            "    from 2026-12-03 09:00 UTC: \(Impact.grouped(later.impact.changed)) of 1,000 contexts change: "))
        #expect(result.markdown().contains("; from 2026-12-03 09:00 UTC: "))
        let json = try #require(result.jsonValue.objectValue?["changes"]?.listValue?.first?.objectValue)
        #expect(json["later_impacts"]?.listValue?.first?.objectValue?["from"] == "2026-12-03T09:00:00.000Z")
    }

    @Test func theImpactNowIsTheStepInForceNow() throws {
        // The first step serves false instead of true: before Monday nothing changes, from Monday everyone does.
        let head = Self.base.replacingOccurrences(of: "serve: true", with: "serve: false")
        let before = try #require(try review(head: head, at: Self.monday - 3600).changes.first)
        #expect(before.impact?.changed == 0)
        #expect(before.laterImpacts.map(\.at) == [Self.monday, Self.wednesday])
        #expect(before.laterImpacts.first?.impact.changed == 1_000)
        #expect(before.laterImpacts.last?.impact.changed == 0)
        let during = try #require(try review(head: head, at: Self.monday + 3600).changes.first)
        #expect(during.impact?.changed == 1_000)
        #expect(during.laterImpacts.map(\.at) == [Self.wednesday])
        // Past the last step the edit changes nothing any more, and nothing later is listed.
        let after = try #require(try review(head: head, at: Self.wednesday + 3600).changes.first)
        #expect(after.impact?.changed == 0)
        #expect(after.laterImpacts.isEmpty)
    }
}
