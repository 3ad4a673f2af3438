import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A runtime store that cannot be read: the one-shot commands say so on standard error, with `--json` too, and
/// exit 1, since what they print is without the runtime layer; writes refuse and leave the file as it was.
@Suite struct UnreadableStoreCommandTests {
    private let garbage = "{\"overrides\": {\"app.new_flow\": {\"value\": tru"

    /// A project whose state file does not parse.
    private func corruptProject() -> TestProject {
        let project = makeProject()
        _ = project.write(".switchboard/overrides.json", garbage)
        return project
    }

    @Test(arguments: [["get", "app.new_flow"], ["explain", "app.new_flow"], ["list"]])
    func aReadPrintsTheOtherLayersAndExitsOne(_ command: [String]) throws {
        let project = corruptProject()
        for json in [false, true] {
            let result = try runSwitchboard(command + ["--flags", project.flags] + (json ? ["--json"] : []))
            #expect(result.status == 1, "\(command) json: \(json)")
            #expect(result.stderr.contains("is corrupt"), "\(result.stderr)")
            #expect(result.stdout.contains(json ? "\"app.new_flow\"" : "false"), "\(result.stdout)")
            if json { #expect(throws: Never.self) { try Value(json: result.stdout) } }
        }
        #expect(project.read(".switchboard/overrides.json") == garbage)
    }

    // Each refuses and says why once; `reset KEY` does not claim the key has no override, since the store that
    // would hold it cannot be read.
    @Test(arguments: [["set", "app.new_flow", "true"], ["reset", "app.new_flow"], ["reset", "--all"]])
    func aWriteRefusesAndLeavesTheFile(_ command: [String]) throws {
        let project = corruptProject()
        let text = try runSwitchboard(command + ["--flags", project.flags])
        #expect(text.status == 1)
        #expect(text.stderr.components(separatedBy: "is corrupt").count == 2, "\(text.stderr)")
        #expect(text.stdout == "")
        let json = try runSwitchboard(command + ["--json", "--flags", project.flags])
        #expect(json.status == 1)
        let object = try #require(try Value(json: json.stdout).objectValue)
        #expect(object["ok"] == false)
        #expect(object["error"]?.stringValue?.contains("is corrupt") == true)
        if command.count == 3 || command.last == "app.new_flow" { #expect(object["key"] == "app.new_flow") }
        #expect(project.read(".switchboard/overrides.json") == garbage)
    }

    @Test func explainSaysTheRuntimeLayerIsUnknown() throws {
        let project = corruptProject()
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "app.new_flow"])
        #expect(explain.stdout.contains("runtime  —              unknown: the override store "), "\(explain.stdout)")
        #expect(!explain.stdout.contains("no runtime override"))
    }

    /// An audit log with a line that is not a record: `log` and `stale`, which read the history, say so and exit
    /// 1 as `get` does, rather than show the records around it, or none, as the whole history.
    @Test(arguments: [["log"], ["stale", "--sources", "."]])
    func aCorruptAuditLogIsSaidByTheCommandsThatReadIt(_ command: [String]) throws {
        let project = makeProject()
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.new_flow", "true"]).status == 0)
        let log = try #require(project.read(".switchboard/audit.jsonl"))
        _ = project.write(".switchboard/audit.jsonl", "not json\n" + log)
        let result = try runSwitchboard(command + ["--flags", project.flags])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("is corrupt at byte 0"), "\(result.stderr)")
    }

    @Test func aReadableStoreExitsZero() throws {
        let project = makeProject()
        let result = try runSwitchboard(["get", "--json", "--flags", project.flags, "app.new_flow"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }
}
