import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// With `--json` every command fails in one shape on standard output, `{"ok": false, "diagnostics": [...]}`, and
/// `set` and `reset` answer what `get --json` answers after the write.
@Suite struct JSONFailureTests {
    /// The object a failing `--json` command printed, after checking it exited 1 with nothing on standard error.
    private func failure(_ result: ProcessResult) throws -> [String: Value] {
        #expect(result.status == 1)
        #expect(result.stderr == "")
        return try #require(try Value(json: result.stdout).objectValue)
    }

    /// The one diagnostic of a failure, as fields.
    private func diagnostic(_ object: [String: Value]) throws -> [String: Value] {
        #expect(object["ok"] == false)
        let diagnostics = try #require(object["diagnostics"]?.listValue)
        #expect(diagnostics.count == 1)
        return try #require(diagnostics.first?.objectValue)
    }

    /// A usage error (exit status 2) is the same object on standard output, the usage still on standard error.
    @Test func aUsageErrorIsAJSONFailureToo() throws {
        let project = makeProject()
        let badTime = try runSwitchboard(["get", "--json", "--flags", project.flags, "app.new_flow", "--at", "nope"])
        #expect(badTime.status == 2)
        #expect(badTime.stderr.contains("Usage: switchboard get"))
        let message = try diagnostic(try #require(try Value(json: badTime.stdout).objectValue))["message"]
        #expect(message?.stringValue?.hasPrefix("--at takes an RFC 3339 time with a zone") == true)
        let badStore = try runSwitchboard(["list", "--json", "--flags", project.flags, "--store", "mysql://x"])
        #expect(badStore.status == 2)
        let store = try diagnostic(try #require(try Value(json: badStore.stdout).objectValue))
        #expect(store["hint"] != nil, "\(store)")
        #expect(store["message"]?.stringValue?.contains("hint:") == false, "\(store)")
        let unknown = try runSwitchboard(["frob", "--json"])
        #expect(unknown.status == 2)
        #expect(try diagnostic(try #require(try Value(json: unknown.stdout).objectValue))["message"]
            == "unknown command 'frob'")
        let text = try runSwitchboard(["get", "--flags", project.flags, "app.new_flow", "--at", "nope"])
        #expect(text.stdout == "")
    }

    @Test func anUnknownKeyIsAJSONFailureWithTheSuggestion() throws {
        let project = makeProject()
        for command in ["get", "explain"] {
            let object = try failure(runSwitchboard([command, "--json", "--flags", project.flags, "app.new_flw"]))
            #expect(object["key"] == "app.new_flw")
            let diagnostic = try diagnostic(object)
            #expect(diagnostic["severity"] == "error")
            #expect(diagnostic["message"] == "unknown key 'app.new_flw'")
            #expect(diagnostic["hint"] == "did you mean 'app.new_flow'?")
        }
    }

    // The message and its hint are separate fields: a script shows the message without a "hint:" line inside it.
    @Test func aRefusedSetKeepsTheHintOutOfTheError() throws {
        let project = makeProject()
        let object = try failure(
            runSwitchboard(["set", "--json", "--flags", project.flags, "app.upload.max_mb", "abc"]))
        #expect(object["key"] == "app.upload.max_mb")
        let message = "refused value for app.upload.max_mb: expected an int, found the string \"abc\"; "
            + "nothing was written"
        #expect(object["error"] == .string(message))
        let diagnostic = try diagnostic(object)
        #expect(diagnostic["message"] == .string(message))
        #expect(diagnostic["hint"] == "app.upload.max_mb is an int")
        #expect(project.read(".switchboard/overrides.json") == nil)
    }

    @Test func resetAnswersTheKeyAsGetDoes() throws {
        let project = makeProject()
        try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "100"])
        let reset = try runSwitchboard(["reset", "--json", "--flags", project.flags, "app.upload.max_mb"])
        #expect(reset.status == 0)
        let get = try runSwitchboard(["get", "--json", "--flags", project.flags, "app.upload.max_mb"])
        var object = try #require(try Value(json: reset.stdout).objectValue)
        #expect(object.removeValue(forKey: "removed") == true)
        #expect(Value.object(object) == (try Value(json: get.stdout)))
        #expect(object["value"] == 25)
        #expect(object["layer"] == "default")
        let again = try runSwitchboard(["reset", "--json", "--flags", project.flags, "app.upload.max_mb"])
        #expect(try Value(json: again.stdout).objectValue?["removed"] == false)
        let all = try runSwitchboard(["reset", "--json", "--all", "--flags", project.flags])
        #expect(all.stdout == "{\"ok\":true,\"removed\":0}\n")
        let unknown = try failure(runSwitchboard(["reset", "--json", "--flags", project.flags, "app.nope"]))
        #expect(unknown["key"] == "app.nope")
        #expect(try diagnostic(unknown)["message"] == "unknown key 'app.nope'")
    }

    @Test func definitionErrorsAndAMissingFolderAreJSONFailures() throws {
        let project = makeProject(definitions: "namespace: app\nflags:\n  on:\n    type: boool\n    default: true\n")
        let object = try failure(runSwitchboard(["get", "--json", "--flags", project.flags, "app.on"]))
        let diagnostic = try diagnostic(object)
        #expect(diagnostic["file"] != nil && diagnostic["line"] == 4)
        let missing = try failure(runSwitchboard(["log", "--json", "--flags", project.path + "/nowhere"]))
        #expect(try self.diagnostic(missing)["hint"]?.stringValue?.contains("--flags DIR") == true)
        // The commands without the shared options fail in the same shape.
        let refs = try failure(runSwitchboard(["refs", "--json", "--flags", project.flags], in: project.path))
        #expect(try self.diagnostic(refs)["line"] == 4)
        let access = project.write("access.yaml", "people:\n  - name: ana\n    roles: [nope]\n")
        let list = try runSwitchboard(["access", "list", "--json", "--access-file", access])
        #expect(list.status == 1)
        let people = try #require(try Value(json: list.stdout).objectValue)
        #expect(people["ok"] == false && people["diagnostics"]?.listValue?.isEmpty == false)
    }

    /// The commands whose answer is no JSON document refuse `--json` as a usage error rather than ignore it; a script
    /// that asked for JSON still reads the failure as JSON.
    @Test(arguments: [["retire", "app.new_flow", "--keep", "true"], ["serve", "--port", "0"]])
    func aCommandWithoutJSONRefusesIt(_ command: [String]) throws {
        let project = makeProject()
        let result = try runSwitchboard(command + ["--json", "--flags", project.flags])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(command[0]) has no --json output"), "\(result.stderr)")
        #expect(try diagnostic(try #require(try Value(json: result.stdout).objectValue))["message"]?.stringValue?
            .hasPrefix("\(command[0]) has no --json output") == true)
    }
}
