import Switchboard
import SwitchboardREPL
import SwitchboardTestSupport
import Testing

/// The REPL's `log` on an audit log with a line that is not a record: the store's error and its hint, never "no
/// changes have been recorded", which would say that nobody ever changed anything.
struct LogCorruptAuditTests {
    let project = replProject()

    @Test func aCorruptLogIsReportedNotShownEmpty() throws {
        let session = try project.session()
        #expect(session.execute("set app.theme dark").succeeded)
        #expect(session.execute("log").output.contains("app.theme"))
        let log = try #require(project.read(".switchboard/audit.jsonl"))
        _ = project.write(".switchboard/audit.jsonl", "not a record\n" + log)

        let reply = session.execute("log")
        #expect(!reply.succeeded)
        #expect(reply.output.isEmpty)
        #expect(reply.errors.hasPrefix("error: the audit log "))
        #expect(reply.errors.contains("is corrupt at byte 0: the line is not an audit record\n"))
        #expect(reply.errors.contains("  hint: it was left as it is"))
    }
}
