import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard get` on a disabled flag says what a caller gets: its own default (`--default VALUE` shows that
/// value), with the reason DISABLED in `--json`; the shipped example's kill switch is such a flag.
struct DisabledFlagCommandTests {
    let project = TestProject(copyingFlags: Repository.path("flags"), prefix: "switchboard-cli-test")

    @Test func withoutADefaultItSaysCallersGetTheirOwn() throws {
        let result = try runSwitchboard(["get", "search.spellcheck", "--flags", project.flags,
                                         "--state", project.storePath])
        #expect(result.status == 0)
        #expect(result.stdout == "(disabled: callers get their own default)\n")
    }

    @Test func withADefaultItPrintsWhatThatCallerGets() throws {
        let text = try runSwitchboard(["get", "search.spellcheck", "--default", "false", "--flags", project.flags,
                                       "--state", project.storePath])
        #expect(text.status == 0 && text.stdout == "false\n")
        let json = try runSwitchboard(["get", "search.spellcheck", "--default", "false", "--json",
                                       "--flags", project.flags, "--state", project.storePath])
        let object = try Value(json: json.stdout).objectValue ?? [:]
        #expect(object["value"] == false && object["reason"] == "DISABLED")
    }

    @Test func jsonWithoutADefaultHasANullValue() throws {
        let json = try runSwitchboard(["get", "search.spellcheck", "--json", "--flags", project.flags,
                                       "--state", project.storePath])
        let object = try Value(json: json.stdout).objectValue ?? [:]
        #expect(object["value"] == .null && object["reason"] == "DISABLED")
    }

    @Test func resettingItsOverrideSaysItIsDisabledAgain() throws {
        let arguments = ["--flags", project.flags, "--state", project.storePath]
        let set = try runSwitchboard(["set", "search.spellcheck", "true"] + arguments)
        #expect(set.status == 0 && set.stdout == "search.spellcheck = true (runtime)\n")
        let reset = try runSwitchboard(["reset", "search.spellcheck"] + arguments)
        #expect(reset.status == 0)
        #expect(reset.stdout == "search.spellcheck = (disabled: callers get their own default)\n")
    }

    @Test func aDefaultOfTheWrongTypeIsAUsageError() throws {
        let result = try runSwitchboard(["get", "search.spellcheck", "--default", "maybe", "--flags", project.flags,
                                         "--state", project.storePath])
        #expect(result.status == 2)
        #expect(result.stderr
                    == "error: --default for search.spellcheck: expected a bool, found the string \"maybe\"\n")
        #expect(!result.stderr.contains("Usage: switchboard <subcommand>"))
    }
}
