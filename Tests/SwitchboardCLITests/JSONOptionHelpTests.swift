import SwitchboardTestSupport
import Testing

/// `--json` is listed by the commands that print JSON, and left out of the help of those that refuse it, which
/// still refuse it with a pointer to a command that has it.
struct JSONOptionHelpTests {
    @Test(arguments: [["repl"], ["serve"], ["retire", "app.new_flow", "--keep", "true"]])
    func aCommandWithoutJSONOutputDoesNotListIt(arguments: [String]) throws {
        let command = arguments[0]
        let help = try runSwitchboard([command, "--help"])
        #expect(help.status == 0)
        #expect(!help.stdout.contains("--json"), "\(help.stdout)")
        let refused = try runSwitchboard(arguments + ["--json"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(command) has no --json output"), "\(refused.stderr)")
    }

    @Test(arguments: ["validate", "list", "get", "explain", "set", "reset", "log", "diff", "stale"])
    func aCommandWithJSONOutputListsIt(command: String) throws {
        let help = try runSwitchboard([command, "--help"])
        #expect(help.stdout.contains("--json"), "\(help.stdout)")
    }
}
