import Foundation
import Switchboard
import SwitchboardReview
import SwitchboardTestSupport
import Testing

/// Sides read from git revisions, the working tree and environments of one tree.
@Suite struct RevisionReviewTests {
    static let first = """
        namespace: search
        flags:
          new_ranking:
            type: bool
            default: false
            owner: search
            rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]
          old_layout:
            type: string
            default: list
            owner: web
        preferences:
          page_size:
            type: int
            default: 20

        """

    func repository() throws -> GitFixture {
        let repository = try GitFixture()
        repository.write("flags/search.yaml", Self.first)
        repository.write("flags/environments/staging.yaml", "overrides: { search.page_size: 50 }\n")
        repository.write("flags/environments/production.yaml", "overrides: { search.page_size: 20 }\n")
        try repository.commit("first")
        // A rename (with renamed_from), a type change, a removal, and a rollout change.
        repository.write("flags/search.yaml", Self.first
            .replacingOccurrences(of: "weight: 10 }, { value: false, weight: 90",
                                  with: "weight: 50 }, { value: false, weight: 50")
            .replacingOccurrences(of: "  old_layout:\n    type: string\n    default: list\n    owner: web\n", with: "")
            .replacingOccurrences(of: "  page_size:\n    type: int\n    default: 20\n",
                                  with: "  results_per_page:\n    renamed_from: [search.page_size]\n    type: double\n"
                                      + "    default: 20\n"))
        repository.write("flags/environments/staging.yaml", "overrides: { search.results_per_page: 50 }\n")
        repository.write("flags/environments/production.yaml", "overrides: { search.results_per_page: 20 }\n")
        try repository.commit("second")
        return repository
    }

    @Test func comparesTwoCommits() throws {
        let repository = try repository()
        let flags = repository.path("flags")
        let base = try ReviewSide.load(.revision("HEAD~1", folder: flags), environmentName: nil)
        let head = try ReviewSide.load(.revision("HEAD", folder: flags), environmentName: nil)
        let contexts = (0..<100).map { EvaluationContext(targetingKey: "user-\($0)") }
        let result = Review(base: base, head: head, population: Population(contexts: contexts))
        #expect(result.base == "HEAD~1" && result.head == "HEAD")
        #expect(result.changes.map { "\($0.key) \($0.change.rawValue) \($0.fields)" } == [
            "search.new_ranking modified [\"rollout\"]",
            "search.old_layout removed []",
            "search.results_per_page renamed [\"type\", \"default\"]",
        ])
        #expect(result.changes.last?.renamedFrom == "search.page_size")
        #expect(result.changes.last?.impact == Impact(contexts: 100, changed: 100, before: ["20": 100],
                                                     after: ["20.0": 100]))
    }

    @Test func theWorkingTreeIsTheDefaultHead() throws {
        let repository = try repository()
        repository.write("flags/search.yaml", Self.first)
        let flags = repository.path("flags")
        let head = try ReviewSide.load(.folder(flags, label: ReviewSource.worktreeLabel), environmentName: nil)
        let base = try ReviewSide.load(.revision("HEAD~1", folder: flags), environmentName: nil)
        let result = Review(base: base, head: head, population: Population(contexts: []))
        #expect(result.head == "WORKTREE")
        #expect(result.changes.isEmpty)
    }

    @Test func twoEnvironmentsOfOneRevision() throws {
        let repository = try repository()
        let flags = repository.path("flags")
        let base = try ReviewSide.load(.revision("HEAD", folder: flags), environmentName: "staging")
        let head = try ReviewSide.load(.revision("HEAD", folder: flags), environmentName: "production")
        let contexts = [EvaluationContext(targetingKey: "a"), EvaluationContext(targetingKey: "b")]
        let result = Review(base: base, head: head, population: Population(contexts: contexts))
        #expect(result.changes.map(\.key) == ["search.results_per_page"])
        #expect(result.changes.first?.details == ["override: 50.0 → 20.0"])
        #expect(result.changes.first?.impact == Impact(contexts: 2, changed: 2, before: ["50.0": 2],
                                                      after: ["20.0": 2]))
    }

    @Test func aSideThatDoesNotValidateIsNamedWithItsFirstDiagnostic() throws {
        let repository = try repository()
        repository.write("flags/search.yaml", "flags:\n  broken:\n    type: bool\n    default: maybe\n")
        try repository.commit("broken")
        let error = #expect(throws: ReviewError.self) {
            try ReviewSide.load(.revision("HEAD", folder: repository.path("flags")), environmentName: nil)
        }
        #expect(error?.message.hasPrefix("HEAD does not validate: flags/search.yaml:4:14: ") == true)
    }

    @Test func aMissingEnvironmentFileIsAnError() throws {
        let repository = try repository()
        #expect(throws: ReviewError("HEAD has no override file flags/environments/qa.yaml",
                                    hint: "check the environment name")) {
            try ReviewSide.load(.revision("HEAD", folder: repository.path("flags")), environmentName: "qa")
        }
    }
}
