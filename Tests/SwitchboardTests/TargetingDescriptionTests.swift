import Foundation
@testable import Switchboard
import SwitchboardTestSupport
import Testing
import YAML

/// The description of a definition's targeting that the console's flag page draws: rules in order with names,
/// their own conditions apart from their segments', what each serves with rollout weights, the flag's rollout and
/// prerequisites, each with its file and line.
struct TargetingDescriptionTests {
    static let definitions = """
        namespace: search
        segments:
          staff:
            - { attribute: email, ends_with: "@example.com" }
            - { attribute: age, greater_than_or_equal: 18 }
        flags:
          base:
            type: bool
            default: true
          new_ranking:
            type: string
            variants: { old: classic, new: learned }
            default: old
            requires: { flag: search.base, value: true }
            rules:
              - name: staff first
                segment: staff
                variant: new
              - when:
                  - { attribute: plan, in: [pro, team] }
                  - { attribute: version, semver: ">= 2.1.0" }
                rollout:
                  - { variant: new, weight: 25 }
                  - { variant: old, weight: 75 }
            rollout:
              - { variant: new, weight: 10 }
              - { variant: old, weight: 90 }
        """

    private func description(_ key: String) throws -> TargetingDescription? {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let definition = try #require(board.registry[key])
        return TargetingDescription(definition)
    }

    @Test func rulesInOrderWithTheirConditionsSegmentsAndWhatTheyServe() throws {
        let targeting = try #require(try description("search.new_ranking"))
        #expect(targeting.rules.map(\.label) == ["rule 1 'staff first'", "rule 2"])
        let first = targeting.rules[0]
        #expect(first.conditions.isEmpty)
        #expect(first.segments.map(\.name) == ["staff"])
        #expect(first.segments[0].conditions == [#"email ends_with "@example.com""#, "age >= 18"])
        #expect(first.serves.map(\.value) == ["learned"])
        #expect(first.serves.map(\.variant) == ["new"])
        #expect(first.location.line == 16)
        let second = targeting.rules[1]
        #expect(second.conditions == [#"plan in ["pro","team"]"#, #"version semver ">= 2.1.0""#])
        #expect(second.serves.map(\.variant) == ["new", "old"])
        #expect(second.serves.map { $0.weight?.of } == [25, 75])
        #expect(second.serves.map { $0.weight?.total } == [100, 100])
    }

    @Test func theFlagsRolloutAndPrerequisites() throws {
        let targeting = try #require(try description("search.new_ranking"))
        #expect(targeting.rollout.map(\.variant) == ["new", "old"])
        #expect(targeting.rollout.map { $0.weight?.of } == [10, 90])
        #expect(targeting.rolloutLocation != nil)
        #expect(targeting.prerequisites.map(\.key) == ["search.base"])
        #expect(targeting.prerequisites.map(\.value) == [true])
        #expect(targeting.logic == nil)
    }

    @Test func theJSONCarriesFileAndLine() throws {
        let targeting = try #require(try description("search.new_ranking"))
        let rules = try #require(targeting.jsonValue.objectValue?["rules"]?.listValue)
        #expect(rules.count == 2)
        #expect(rules[0].objectValue?["name"] == "staff first")
        #expect(rules[0].objectValue?["location"]?.stringValue?.hasSuffix("app.yaml:16") == true)
    }

    @Test func aDefinitionWithoutTargetingHasNoDescription() throws {
        #expect(try description("search.base") == nil)
    }
}
