import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard explain KEY` prints the targeting as the web console's flag page draws it, from the same
/// description: prerequisites, the rules in order with their names, conditions, segments and what each serves,
/// rollout weights, and each part's `file:line`.
struct ExplainTargetingCommandTests {
    /// The repository's own `flags/`, which the console's browser tests and the targeting article show too.
    let project = TestProject(copyingFlags: Repository.path("flags"), prefix: "switchboard-cli-test")

    func explain(_ key: String, _ options: [String] = []) throws -> String {
        let result = try runSwitchboard(["explain", key, "--flags", "flags"] + options, in: project.path)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func rulesSegmentsAndRolloutsInOrder() throws {
        #expect(try explain("search.new_ranking", ["--context", "email=ana@example.com"]) == """
            search.new_ranking (flag, bool) — New ranking model, rolled out gradually.
              runtime  —              no runtime override
              env      —              SWITCHBOARD_SEARCH__NEW_RANKING not set
              file     —              no override file sets it
              default  true           flags/search.yaml:23:9 targeting (rule 1 'staff first')  ← wins
              targeting: rule 1 'staff first' (segment staff) matched → true
                rule 1 'staff first'  flags/search.yaml:23
                  when in segment staff: email ends_with "@example.com"
                  serves true
                rule 2 'beta'  flags/search.yaml:26
                  when in segment beta_testers: plan in ["pro","team"] and app_version semver ">= 2.1.0"
                  serves a rollout:
                      50 %  true  (weight 50 of 100)
                      50 %  false  (weight 50 of 100)
                rule 3 'embargo'  flags/search.yaml:32
                  when country in ["XX","YY"]
                  serves false
                everyone else: a rollout  flags/search.yaml:38
                      10 %  true  (weight 10 of 100)
                      90 %  false  (weight 90 of 100)
            value: true from the default layer

            """)
    }

    @Test func prerequisitesVariantsAndConditionsThatAllMustHold() throws {
        #expect(try explain("search.result_layout").contains("""
              targeting: prerequisite search.new_ranking = true not met; default served
                prerequisites:
                  search.new_ranking must be true  flags/search.yaml:46
                rule 1  flags/search.yaml:48
                  when device equals "tablet"
                  serves grid (variant grid)
                rule 2  flags/search.yaml:51
                  when signup_date after "2026-06-01"
                  serves a rollout:
                      50 %  grid (variant grid)  (weight 1 of 2)
                      50 %  cards (variant cards)  (weight 1 of 2)
            value: list from the default layer (variant list)

            """))
        #expect(try explain("search.page_size").contains("""
                rule 2  flags/search.yaml:73
                  when beta_opt_in exists
                   and age_days < 30
                  serves 50

            """))
    }

    @Test func aFlagWithoutTargetingHasNoSection() throws {
        let text = try explain("app.theme")
        #expect(!text.contains("targeting"))
        #expect(text.hasSuffix("value: system from the default layer\n"))
    }
}
