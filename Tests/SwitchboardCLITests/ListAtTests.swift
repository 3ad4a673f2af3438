import Switchboard
import SwitchboardTestSupport
import Testing

/// `list --at TIME` lists every key as of another time, as `get --at` answers one: the schedule steps in force
/// then, and the runtime overrides not yet expired then.
@Suite struct ListAtTests {
    @Test func everyKeyAsOfAnotherTime() throws {
        let project = TestProject(definitions: scheduledDefinitions)
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.other", "5", "--for", "1h"]).status == 0)
        func values(_ extra: [String]) throws -> [String: Value] {
            let result = try runSwitchboard(["list", "--json", "--flags", project.flags] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            var values: [String: Value] = [:]
            for row in try Value(json: result.stdout).listValue ?? [] {
                if let key = row.objectValue?["key"]?.stringValue { values[key] = row.objectValue?["value"] }
            }
            return values
        }
        #expect(try values([]) == ["app.launch": false, "app.other": 5])
        #expect(try values(["--at", "2099-02-01T00:00:00Z"]) == ["app.launch": true, "app.other": 1])
        let bad = try runSwitchboard(["list", "--flags", project.flags, "--at", "tomorrow"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--at takes an RFC 3339 time with a zone"), "\(bad.stderr)")
    }
}
