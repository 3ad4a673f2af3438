import Testing
import Switchboard
import SwitchboardTestSupport

/// `switchboard --version` and `switchboard version` print ``SwitchboardVersion/current``.
struct VersionCommandTests {
    @Test(arguments: [["--version"], ["version"]])
    func printsTheVersion(arguments: [String]) throws {
        let result = try runSwitchboard(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == SwitchboardVersion.current + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func printsJSON() throws {
        let result = try runSwitchboard(["version", "--json"])
        #expect(result.status == 0)
        #expect(try Value(json: result.stdout) == .object(["version": .string(SwitchboardVersion.current)]))
    }
}
