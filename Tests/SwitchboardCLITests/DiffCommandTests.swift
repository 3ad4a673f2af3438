import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard diff` as a user runs it: in a git repository with two commits that change a rollout and a type and
/// remove a key, with a population file, a stored override, and each exit status.
@Suite struct DiffCommandTests {
    static let first = """
        namespace: app
        flags:
          new_ranking:
            type: bool
            default: false
            rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]
          old_banner:
            type: bool
            default: false
        preferences:
          upload.max_mb:
            type: int
            default: 25

        """

    /// The repository after its second commit, with a stored override of 700 in the file store.
    func repository() throws -> GitFixture {
        let repository = try GitFixture()
        repository.write(".gitignore", ".switchboard/\n")
        repository.write("flags/app.yaml", Self.first)
        try repository.commit("first")
        repository.write("flags/app.yaml", Self.first
            .replacingOccurrences(of: "weight: 10 }, { value: false, weight: 90",
                                  with: "weight: 50 }, { value: false, weight: 50")
            .replacingOccurrences(of: "  old_banner:\n    type: bool\n    default: false\n", with: "")
            .replacingOccurrences(of: "    type: int\n    default: 25\n",
                                  with: "    type: double\n    default: 25\n    max: 500\n"))
        try repository.commit("second")
        repository.write(".switchboard/overrides.json", """
            {"format":"switchboard-store","version":1,"overrides":{"app.upload.max_mb":\
            {"value":700,"actor":"tester","time":"2026-01-01T00:00:00.000Z","version":1}}}
            """)
        // Four contexts; the rollout's buckets for each are what the engine gives (checked by the library's tests).
        repository.write("contexts.jsonl", (0..<4).map { "{\"targetingKey\": \"user-\($0)\"}\n" }.joined())
        return repository
    }

    func diff(_ arguments: [String], in repository: GitFixture) throws -> ProcessResult {
        try runSwitchboard(["diff"] + arguments, in: repository.folder.path, environment: GitFixture.environment)
    }

    @Test func jsonNamesEachChangeItsImpactAndTheRisks() throws {
        let repository = try repository()
        let result = try diff(["HEAD~1", "HEAD", "--json", "--contexts", "contexts.jsonl"], in: repository)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["base"] as? String == "HEAD~1")
        #expect(json["head"] as? String == "HEAD")
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["key"] as? String } == ["app.new_ranking", "app.old_banner", "app.upload.max_mb"])
        #expect(changes.map { $0["change"] as? String } == ["modified", "removed", "modified"])
        #expect(changes.map { $0["fields"] as? [String] } == [["rollout"], [], ["type", "default", "constraints"]])
        let limit = try #require(changes[2]["impact"] as? [String: Any])
        #expect(limit["contexts"] as? Int == 4)
        #expect(limit["changed"] as? Int == 4)
        #expect(limit["before"] as? [String: Int] == ["25": 4])
        #expect(limit["after"] as? [String: Int] == ["25.0": 4])
        let breaking = try #require(json["breaking"] as? [[String: String]])
        #expect(breaking == [
            [
                "key": "app.upload.max_mb",
                "reason": "its type changes from int to double: code that reads it as an int (a generated key, a "
                    + "typed lookup, an OpenFeature client) gets its own default instead, and a value set for it "
                    + "elsewhere may no longer fit",
            ],
            [
                "key": "app.upload.max_mb",
                "reason": "stored override 700 no longer fits: 700.0 is above the maximum 500 of app.upload.max_mb",
            ],
        ])
    }

    @Test func failOnBreakingExitsThree() throws {
        let repository = try repository()
        let failing = try diff(["HEAD~1", "HEAD", "--fail-on", "breaking"], in: repository)
        #expect(failing.status == 3)
        #expect(failing.stdout.contains("breaking (2):"))
        // Without the stored override, the type change alone is breaking.
        try repository.remove(".switchboard/overrides.json")
        let typeOnly = try diff(["HEAD~1", "HEAD", "--fail-on", "breaking"], in: repository)
        #expect(typeOnly.status == 3)
        #expect(typeOnly.stdout.contains("breaking (1):"))
        #expect(try diff(["HEAD~1", "HEAD~1", "--fail-on", "breaking"], in: repository).status == 0)
    }

    @Test func markdownIsATable() throws {
        let repository = try repository()
        let result = try diff(["HEAD~1", "--markdown", "--samples", "100"], in: repository)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("### Flag changes: `HEAD~1` → `WORKTREE`\n"))
        #expect(result.stdout.contains("| key | change | fields | impact |\n|---|---|---|---|\n"))
        #expect(result.stdout.contains("| `app.old_banner` | removed |  |  |\n"))
    }

    // The name the report gives the working tree names it on the command line, on either side.
    @Test func worktreeNamesTheWorkingTree() throws {
        let repository = try repository()
        let implied = try diff(["HEAD~1", "--json"], in: repository)
        let named = try diff(["HEAD~1", "WORKTREE", "--json"], in: repository)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == implied.stdout)
        let reversed = try diff(["WORKTREE", "HEAD~1", "--json"], in: repository)
        #expect(reversed.status == 0, "\(reversed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reversed.stdout.utf8)) as? [String: Any])
        #expect(json["base"] as? String == "WORKTREE")
        #expect(json["head"] as? String == "HEAD~1")
    }

    @Test func anUnknownRevisionExitsOne() throws {
        let repository = try repository()
        let result = try diff(["nope"], in: repository)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: unknown revision 'nope'\n"))
    }

    @Test func outsideARepositoryExitsOne() throws {
        let folder = TemporaryDirectory(prefix: "switchboard-cli-test")
        folder.write("flags/app.yaml", Self.first)
        let result = try runSwitchboard(["diff"], in: folder.path, environment: GitFixture.environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not inside a git repository"))
        // Two folders need no repository.
        folder.write("new/app.yaml", Self.first)
        let folders = try runSwitchboard(["diff", "--from", "flags", "--to", "new"], in: folder.path)
        #expect(folders.status == 0)
        #expect(folders.stdout == "flags → new: no key changed; 0 breaking risks.\n")
    }

    @Test func twoEnvironmentsOfTheWorkingTree() throws {
        let repository = try repository()
        repository.write("flags/environments/staging.yaml", "overrides: { app.upload.max_mb: 50 }\n")
        repository.write("flags/environments/production.yaml", "overrides: { app.upload.max_mb: 20 }\n")
        let result = try diff(["--env-base", "staging", "--env-head", "production", "--samples", "10", "--json"],
                              in: repository)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = #"{"base":"WORKTREE (env staging)","breaking":[],"changes":[{"change":"modified","#
            + #""details":["override: 50.0 → 20.0"],"fields":["override"],"impact":"#
            + #"{"after":{"20.0":10},"before":{"50.0":10},"changed":10,"contexts":10}"#
        #expect(result.stdout.hasPrefix(expected))
    }

    /// `--at` measures the impact as of another time: an edit to a step still to come changes values from then.
    @Test func atMeasuresAsOfAnotherTime() throws {
        let folder = TemporaryDirectory(prefix: "switchboard-cli-test")
        let step = "flags:\n  launch:\n    type: bool\n    default: false\n    schedule:\n"
            + "      - at: 2027-01-05T09:00:00Z\n        serve: "
        folder.write("a/app.yaml", step + "true\n")
        folder.write("b/app.yaml", step + "false\n")
        let before = try runSwitchboard(["diff", "--from", "a", "--to", "b", "--samples", "10", "--at",
                                         "2027-01-01T00:00:00Z"], in: folder.path)
        #expect(before.stdout.contains("    impact: no change for 10 contexts\n"
            + "    from 2027-01-05 09:00 UTC: 10 of 10 contexts change: true 100% (10) → false 100% (10)\n"),
                "\(before.stdout)")
        let after = try runSwitchboard(["diff", "--from", "a", "--to", "b", "--samples", "10", "--at",
                                        "2027-01-06T00:00:00Z"], in: folder.path)
        #expect(after.stdout.contains("    impact: 10 of 10 contexts change: true 100% (10) → false 100% (10)\n"),
                "\(after.stdout)")
        #expect(!after.stdout.contains("from 2027"))
        #expect(try runSwitchboard(["diff", "--from", "a", "--to", "b", "--at", "soon"], in: folder.path).status == 2)
    }

    @Test func usageErrorsExitTwo() throws {
        let repository = try repository()
        #expect(try diff(["--from", "flags"], in: repository).status == 2)
        #expect(try diff(["--json", "--markdown"], in: repository).status == 2)
        #expect(try diff(["--fail-on", "anything"], in: repository).status == 2)
        // More contexts than could be held is a usage error, not an allocation that stops the process.
        let tooMany = try diff(["--samples", "99999999999"], in: repository)
        #expect(tooMany.status == 2)
        #expect(tooMany.stderr.contains("--samples must be at most 1000000"))
    }
}
