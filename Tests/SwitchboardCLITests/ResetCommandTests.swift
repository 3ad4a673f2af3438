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
}
