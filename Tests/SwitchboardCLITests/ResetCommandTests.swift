import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard reset`: what it removed, and when there was nothing to remove, that (in the REPL's words), with
/// nothing written to the audit log.
@Suite struct ResetCommandTests {
    @Test func aKeyWithoutAnOverrideIsSaidAndNothingIsWritten() throws {
        let project = makeProject()
        let reset = try runSwitchboard(["reset", "--flags", project.flags, "app.upload.max_mb"])
        #expect(reset.status == 0)
        #expect(reset.stdout == "app.upload.max_mb has no runtime override; it is 25 (default)\n")
        #expect(try runSwitchboard(["log", "--flags", project.flags]).stdout == "no changes have been recorded\n")
        try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "100"])
        let removed = try runSwitchboard(["reset", "--flags", project.flags, "app.upload.max_mb"])
        #expect(removed.stdout == "app.upload.max_mb = 25 (default)\n")
    }

    @Test func resetAllSaysHowManyWent() throws {
        let project = makeProject()
        let none = try runSwitchboard(["reset", "--all", "--flags", project.flags])
        #expect(none.status == 0)
        #expect(none.stdout == "there are no runtime overrides\n")
        #expect(try runSwitchboard(["log", "--flags", project.flags]).stdout == "no changes have been recorded\n")
        try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "100"])
        try runSwitchboard(["set", "--flags", project.flags, "app.new_flow", "true"])
        #expect(try runSwitchboard(["reset", "--all", "--flags", project.flags]).stdout
                    == "removed 2 runtime overrides\n")
        let json = try runSwitchboard(["reset", "--all", "--json", "--flags", project.flags])
        #expect(json.stdout == "{\"ok\":true,\"removed\":0}\n")
    }

    // A broken edit must not keep anyone from clearing an override: `reset` removes it from the store all the same,
    // says the definitions' errors kept it from showing the value, and writes it to the audit log; `set` still
    // refuses, since it needs the definition to check the value.
    @Test func aBrokenDefinitionsFileDoesNotStopAReset() throws {
        let project = makeProject()
        try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "100"])
        try runSwitchboard(["set", "--flags", project.flags, "app.new_flow", "true"])
        try runSwitchboard(["set", "--flags", project.flags, "app.theme", "dark"])
        let file = project.flags + "/app.yaml"
        try (String(contentsOfFile: file, encoding: .utf8) + "  broken: [\n").write(toFile: file, atomically: true,
                                                                                    encoding: .utf8)
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.theme", "light"]).status == 1)
        let reset = try runSwitchboard(["reset", "--flags", project.flags, "app.upload.max_mb"])
        #expect(reset.status == 0)
        #expect(reset.stdout == "removed the runtime override of app.upload.max_mb\n")
        #expect(reset.stderr.contains("app.yaml:"))
        #expect(reset.stderr.hasSuffix("1 error in the definitions or override files; the store was changed without "
                                        + "them, and no value is shown.\n"))
        let again = try runSwitchboard(["reset", "--json", "--flags", project.flags, "app.upload.max_mb"])
        #expect(again.stdout == "{\"key\":\"app.upload.max_mb\",\"removed\":false}\n")
        #expect(try runSwitchboard(["reset", "--all", "--flags", project.flags]).stdout
                    == "removed 2 runtime overrides\n")
        let log = try runSwitchboard(["log", "--flags", project.flags]).stdout
        #expect(log.split(separator: "\n").filter { $0.contains("→ (none)") }.count == 3)
    }
}
