import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Who the audit log records for a command-line change: `--actor`, else the first of `$SWITCHBOARD_ACTOR`, `$USER`
/// and `$LOGNAME` that is set to something, else `cli`; an empty `--actor` is refused.
@Suite struct ActorTests {
    /// The actor of the last audit record after `set` of `value` with `options` in `environment` (a value other
    /// than the last, so that the set writes a record).
    private func recordedActor(_ project: TestProject, value: Int, options: [String] = [],
                               environment: [String: String]) throws -> String? {
        let set = try runSwitchboard(["set", "--flags", project.flags, "app.stress.a", String(value)] + options,
                                     environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        let log = try Value(json: try runSwitchboard(["log", "--json", "--flags", project.flags]).stdout)
        return log.listValue?.last?.objectValue?["actor"]?.stringValue
    }

    @Test func anEmptyVariableCountsAsUnset() throws {
        let project = makeProject()
        let empty = ["SWITCHBOARD_ACTOR": "", "USER": "", "LOGNAME": ""]
        #expect(try recordedActor(project, value: 1, environment: empty) == "cli")
        #expect(try recordedActor(project, value: 2, environment: empty.merging(["LOGNAME": "bob"]) { $1 }) == "bob")
        let both = empty.merging(["USER": "ana", "LOGNAME": "bob"]) { $1 }
        #expect(try recordedActor(project, value: 3, environment: both) == "ana")
        #expect(try recordedActor(project, value: 4, options: ["--actor", "carol"],
                                  environment: ["SWITCHBOARD_ACTOR": "dan"]) == "carol")
    }

    @Test(arguments: [["set", "app.new_flow", "true"], ["reset", "--all"], ["repl"]])
    func anEmptyActorOptionIsAUsageError(_ command: [String]) throws {
        let project = makeProject()
        let result = try runSwitchboard(command + ["--flags", project.flags, "--actor", ""])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--actor is empty"), "\(result.stderr)")
        #expect(project.read(".switchboard/overrides.json") == nil)
    }
}
