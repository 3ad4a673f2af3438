import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardTestSupport
import Testing

/// `switchboard log` shows who made each write: a verified person as is, the name a client claimed beside it, and
/// an unverified name marked; `log --json` has `verified` and `claimed_actor`; the command line records its writes
/// as unverified.
struct AuditLogRenderingTests {
    static let time = "2026-11-27T10:00:00.000Z"

    @Test func theActorColumnShowsClaimsAndUnverifiedNames() {
        let records = [
            AuditRecord(time: Self.time, actor: "ana", claimedActor: "mallory", verified: true, key: "limit",
                        old: nil, new: 7),
            AuditRecord(time: Self.time, actor: "ana", verified: true, key: "limit", old: 7, new: 8),
            AuditRecord(time: Self.time, actor: "cli:bob", key: "limit", old: 8, new: nil),
            AuditRecord(time: Self.time, actor: "proxy", claimedActor: "carol", key: "motto", old: nil, new: "hi"),
        ]
        #expect(AuditRecord.renderedLog(records, terminal: Terminal(fd: 1, colors: false)) == """
            TIME                      ACTOR                                KEY    CHANGE
            2026-11-27T10:00:00.000Z  ana (claimed "mallory")              limit  (none) → 7
            2026-11-27T10:00:00.000Z  ana                                  limit  7 → 8
            2026-11-27T10:00:00.000Z  cli:bob (unverified)                 limit  8 → (none)
            2026-11-27T10:00:00.000Z  proxy (unverified, claimed "carol")  motto  (none) → hi

            """)
    }

    /// A name that could pass for another in the column (one given on the command line or by an identity
    /// provider; access files refuse them) is quoted, its invisible characters escaped, so that no row reads as
    /// another person's or as two rows.
    @Test func aNameThatCouldPassForAnotherIsQuoted() {
        let names = ["ana\u{200B}", "ana ", #"bob (claimed "ana")"#, "eve\n2026-11-27T10:00:00.000Z  ana", "Zoë Ngata"]
        let records = names.map { AuditRecord(time: Self.time, actor: $0, verified: true, key: "k", old: nil, new: 1) }
        #expect(AuditRecord.renderedLog(records, terminal: Terminal(fd: 1, colors: false)) == #"""
            TIME                      ACTOR                                 KEY  CHANGE
            2026-11-27T10:00:00.000Z  "ana\u200b"                           k    (none) → 1
            2026-11-27T10:00:00.000Z  "ana "                                k    (none) → 1
            2026-11-27T10:00:00.000Z  "bob (claimed \"ana\")"               k    (none) → 1
            2026-11-27T10:00:00.000Z  "eve\n2026-11-27T10:00:00.000Z  ana"  k    (none) → 1
            2026-11-27T10:00:00.000Z  Zoë Ngata                             k    (none) → 1

            """#)
    }

    /// A write that expires says until when, and a write over it what the expiry was, so that changing only the
    /// expiry (here, dropping it) does not read as `7 → 7`.
    @Test func aWriteThatExpiresSaysUntilWhen() {
        let until = "2026-11-28T10:00:00.000Z"
        let records = [
            AuditRecord(time: Self.time, actor: "ana", verified: true, key: "limit", old: nil, new: 7,
                        expiresAt: until),
            AuditRecord(time: Self.time, actor: "ana", verified: true, key: "limit", old: 7, new: 7),
            AuditRecord(time: until, actor: "ana", verified: true, key: "limit", old: 7, new: nil, expiresAt: until,
                        event: .expired),
        ]
        #expect(AuditRecord.renderedLog(records, terminal: Terminal(fd: 1, colors: false)) == """
            TIME                      ACTOR  KEY    CHANGE
            2026-11-27T10:00:00.000Z  ana    limit  (none) → 7 until 2026-11-28T10:00:00.000Z
            2026-11-27T10:00:00.000Z  ana    limit  7 until 2026-11-28T10:00:00.000Z → 7
            2026-11-28T10:00:00.000Z  ana    limit  expired: 7 → (none)

            """)
    }

    @Test func theCommandLineRecordsUnverifiedWritesAndLogJSONSaysSo() throws {
        let project = replProject()
        #expect(try runSwitchboard(["set", "app.new_flow", "true", "--flags", project.flags]).status == 0)
        let log = try Value(json: try runSwitchboard(["log", "--json", "--flags", project.flags]).stdout)
        let record = try #require(log.listValue?.first?.objectValue)
        #expect(record["actor"] == "tester")
        #expect(record["verified"] == false)
        #expect(record["claimed_actor"] == nil)
        let text = try runSwitchboard(["log", "--flags", project.flags]).stdout
        #expect(text.contains("  tester (unverified)  app.new_flow  (none) → true\n"))
    }
}
