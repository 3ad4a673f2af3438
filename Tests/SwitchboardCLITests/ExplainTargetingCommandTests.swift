import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard explain KEY` prints the targeting as the web console's flag page draws it, from the same
/// description: prerequisites, the rules in order with their names, conditions, segments and what each serves,
/// rollout weights, and each part's `file:line`.
struct ExplainTargetingCommandTests {
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
                segment: staff
                when:
                  - { attribute: plan, in: [pro, team] }
                rollout:
                  - { value: true, weight: 1 }
                  - { value: false, weight: 2 }
              - when:
                  - { attribute: country, in: [XX] }
                  - { attribute: age, greater_than: 17 }
                serve: false
            rollout:
              - { value: true, weight: 10 }
              - { value: false, weight: 90 }
          layout:
            type: string
            variants: { list: list, grid: grid }
            default: list
            requires: { flag: search.new_ranking, value: true }
            rules:
              - when:
                  - { attribute: device, equals: tablet }
                variant: grid
          plain:
            type: int
            default: 3
        """

    let project = makeProject(definitions: definitions)

    func explain(_ key: String, _ options: [String] = []) throws -> String {
        let result = try runSwitchboard(["explain", key, "--flags", "flags"] + options, in: project.path)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func rulesSegmentsAndRolloutsInOrder() throws {
        #expect(try explain("search.new_ranking", ["--context", "email=ana@example.com"]) == """
            search.new_ranking (flag, bool)
              runtime  —              no runtime override
              env      —              SWITCHBOARD_SEARCH__NEW_RANKING not set
              file     —              no override file sets it
              default  true           flags/app.yaml:10:9 targeting (rule 1 'staff first')  ← wins
              targeting: rule 1 'staff first' (segment staff) matched → true
                rule 1 'staff first'  flags/app.yaml:10
                  when in segment staff: email ends_with "@example.com"
                  serves true
                rule 2 'beta'  flags/app.yaml:13
                  when in segment staff: email ends_with "@example.com"
                   and plan in ["pro","team"]
                  serves a rollout:
                    33.3 %  true  (weight 1 of 3)
                    66.7 %  false  (weight 2 of 3)
                rule 3  flags/app.yaml:20
                  when country in ["XX"]
                   and age > 17
                  serves false
                everyone else: a rollout  flags/app.yaml:25
                      10 %  true  (weight 10 of 100)
                      90 %  false  (weight 90 of 100)
            value: true from the default layer

            """)
    }

    @Test func prerequisitesAndVariants() throws {
        #expect(try explain("search.layout") == """
            search.layout (flag, string)
              runtime  —              no runtime override
              env      —              SWITCHBOARD_SEARCH__LAYOUT not set
              file     —              no override file sets it
              default  list           flags/app.yaml:30:14 (variant list)  ← wins
              targeting: prerequisite search.new_ranking = true not met; default served
                prerequisites:
                  search.new_ranking must be true  flags/app.yaml:31
                rule 1  flags/app.yaml:33
                  when device equals "tablet"
                  serves grid (variant grid)
            value: list from the default layer (variant list)

            """)
    }

    @Test func aFlagWithoutTargetingHasNoSection() throws {
        let text = try explain("search.plain")
        #expect(!text.contains("targeting"))
        #expect(text.hasSuffix("value: 3 from the default layer\n"))
    }
}
