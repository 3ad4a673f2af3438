import Testing
@testable import Switchboard

/// One run reports every mistake of a definition: one in its default, a constraint or a field name does not hide
/// those in its rules or schedule, and a mistake in its rules does not hide its schedule's (which never repeats
/// the rules' for each step).
struct EveryMistakeInOneRunTests {
    static func errors(_ definition: String) -> [String] {
        let yaml = "segments:\n  beta: [{ attribute: plan, equals: beta }]\nflags:\n  d:\n" + definition
        return DefinitionLoader.load(sources: [("m.yaml", Array(yaml.utf8))]).errors.map(\.message)
    }

    static let rule = """
            rules:
              - when: [{ attribute: p, equal: 1 }]
                serve: "z"
              - segment: beta
                serve: 5

        """
    static let schedule = """
            schedule:
              - at: 2026-12-20T09:00:00
                serve: 7
              - at: 2026-12-21T09:00:00Z
                serve: 8

        """

    @Test func aBadDefaultDoesNotHideTheRules() {
        #expect(Self.errors("    type: int\n    default: ten\n" + Self.rule) == [
            "default of d: expected an int, found the string \"ten\"",
            "unknown operator 'equal'",
            "served value of d: expected an int, found the string \"z\"",
        ])
    }

    @Test func aMisspeltDefaultDoesNotHideTheRules() {
        #expect(Self.errors("    type: int\n    defualt: 1\n" + Self.rule) == [
            "unknown field 'defualt' in d",
            "unknown operator 'equal'",
            "served value of d: expected an int, found the string \"z\"",
        ])
    }

    @Test func aBadConstraintDoesNotHideTheSchedule() {
        #expect(Self.errors("    type: int\n    default: 1\n    min: x\n" + Self.schedule) == [
            "min of d: expected an int, found the string \"x\"",
            "at: '2026-12-20T09:00:00' has no time zone",
        ])
    }

    @Test func aBadRuleDoesNotHideTheScheduleNorComeAgainForEachStep() {
        #expect(Self.errors("    type: int\n    default: 1\n" + Self.rule + Self.schedule) == [
            "unknown operator 'equal'",
            "served value of d: expected an int, found the string \"z\"",
            "at: '2026-12-20T09:00:00' has no time zone",
        ])
    }

    // Checked before the segments are known, a segment's rule is still a rule with a condition: no warning that
    // the rules after it never run.
    @Test func aSegmentRuleIsNoCatchAllWhenCheckedAlone() {
        let yaml = "flags:\n  d:\n    type: int\n    default: ten\n    rules:\n      - segment: beta\n"
            + "        serve: 1\n      - serve: 2\n"
        let report = DefinitionLoader.load(sources: [("m.yaml", Array(yaml.utf8))])
        #expect(report.errors.map(\.message) == ["default of d: expected an int, found the string \"ten\""])
        #expect(report.warnings.isEmpty)
    }

    // A refused variant is one mistake: the rules that serve it are not checked without it.
    @Test func aRefusedVariantIsNotReportedAgainByTheRules() {
        #expect(Self.errors("""
                type: int
                variants: { low: 1, high: lots }
                default: low
                rules:
                  - when: [{ attribute: p, equals: 1 }]
                    variant: high

            """) == ["variant 'high' of d: expected an int, found the string \"lots\""])
    }
}
