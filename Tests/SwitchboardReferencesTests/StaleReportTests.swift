import Foundation
import Switchboard
import SwitchboardReferences
import SwitchboardTestSupport
import Testing

/// `StaleReport`'s decision on the fixture `Fixtures/Stale`: a flag past `expires`, one nothing reads, one with no
/// targeting (constant unless its override changed within the window), a targeted flag and a preference that are
/// never stale; and what a server's usage adds.
struct StaleReportTests {
    static let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    static let root = fixtures.path("Stale")

    static let registry: Registry = {
        let report = DefinitionLoader.load(directory: root + "/flags")
        precondition(!report.hasErrors, "the fixture's definitions have errors: \(report.diagnostics)")
        return report.registry
    }()

    static let references = ReferenceScanner(registry: registry)
        .report(files: SwiftSourceFiles.find(in: [root + "/Sources"]))

    /// 2026-11-26T12:00:00Z.
    static let now = UsageReport.seconds(of: "2026-11-26T12:00:00Z")!

    static func report(audit: [AuditRecord] = [], usage: UsageReport? = nil, days: Int = 30) -> StaleReport {
        StaleReport(registry: registry, references: references, audit: audit, usage: usage, days: days, now: now)
    }

    static func record(_ key: String, at time: String, new: Value?) -> AuditRecord {
        AuditRecord(time: time, actor: "alice", key: key, old: nil, new: new)
    }

    @Test func anExpiredDefinitionIsListedWithItsDayAndLine() {
        let report = Self.report()
        #expect(report.expired.map(\.key) == ["app.old_banner"])
        let entry = report.expired[0]
        #expect(entry.expires == Day("2020-01-31"))
        #expect(entry.file.hasSuffix("Stale/flags/app.yaml"))
        #expect(entry.line == 5)
    }

    @Test func aDefinitionNoCodeReadsIsUnreferenced() {
        let report = Self.report()
        #expect(report.unreferenced.map(\.key) == ["app.partner_only"])
        #expect(report.unreferenced[0].line == 13)
    }

    @Test func aFlagWithoutTargetingAndNoOverrideChangeIsConstant() {
        let report = Self.report()
        // The targeted flags and the preference are not; the flag without targeting is, with its default.
        #expect(report.constant.map(\.key) == ["app.new_flow"])
        #expect(report.constant[0].value == .bool(true))
        #expect(report.constant[0].lastChange == nil)
        #expect(report.keys == ["app.old_banner", "app.partner_only", "app.new_flow"])
        #expect(report.server == nil)
        #expect(!report.isEmpty)
    }

    @Test func anOverrideChangeWithinTheWindowMeansNotConstant() {
        let recent = Self.record("app.new_flow", at: "2026-11-20T08:00:00.000Z", new: .bool(false))
        #expect(Self.report(audit: [recent]).constant.isEmpty)
        // The change was six days before now: a five-day window does not see it.
        #expect(Self.report(audit: [recent], days: 5).constant.map(\.key) == ["app.new_flow"])
    }

    @Test func anOverrideChangeBeforeTheWindowGivesTheValueServedSince() {
        let old = Self.record("app.new_flow", at: "2026-09-01T08:00:00.000Z", new: .bool(false))
        let older = Self.record("app.new_flow", at: "2026-08-01T08:00:00.000Z", new: .bool(true))
        let other = Self.record("app.checkout_v2", at: "2026-11-25T08:00:00.000Z", new: .string("new"))
        let constant = Self.report(audit: [old, other, older]).constant
        #expect(constant.map(\.key) == ["app.new_flow"])
        #expect(constant.first?.value == .bool(false))
        #expect(constant.first?.lastChange == "2026-09-01T08:00:00.000Z")
        // An override removed before the window: the default is served again.
        let removed = Self.record("app.new_flow", at: "2026-10-01T08:00:00.000Z", new: nil)
        #expect(Self.report(audit: [old, removed]).constant.first?.value == .bool(true))
    }

    // "Constant" rests on the audit log: the report says how far back it reaches, so a log younger than the
    // window (or none: another store, a fresh clone) is not taken for thirty quiet days.
    @Test func theReportSaysWhetherTheAuditLogCoversTheWindow() {
        let empty = Self.report()
        #expect(empty.auditSince == nil && !empty.auditCoversWindow)
        let recent = Self.record("app.checkout_v2", at: "2026-11-20T08:00:00.000Z", new: .string("new"))
        let young = Self.report(audit: [recent])
        #expect(young.auditSince == "2026-11-20T08:00:00.000Z" && !young.auditCoversWindow)
        #expect(Self.report(audit: [recent], days: 5).auditCoversWindow)
        let old = Self.record("app.checkout_v2", at: "2026-09-01T08:00:00.000Z", new: .string("old"))
        let covered = Self.report(audit: [recent, old])
        #expect(covered.auditSince == "2026-09-01T08:00:00.000Z" && covered.auditCoversWindow)
    }

    @Test func anOverrideThatExpiresWithinTheWindowOrLaterMeansNotConstant() {
        func set(at time: String, expiring expiresAt: String) -> AuditRecord {
            AuditRecord(time: time, actor: "alice", key: "app.new_flow", old: nil, new: .bool(false),
                        expiresAt: expiresAt)
        }
        // Expired six days ago: the value changed within the window.
        #expect(Self.report(audit: [set(at: "2026-09-01T08:00:00.000Z", expiring: "2026-11-20T08:00:00.000Z")])
            .constant.isEmpty)
        // Still in force, and expiring later: a change to come.
        #expect(Self.report(audit: [set(at: "2026-09-01T08:00:00.000Z", expiring: "2026-12-31T08:00:00.000Z")])
            .constant.isEmpty)
        // Expired before the window: the default since its expiry.
        let constant = Self.report(audit: [set(at: "2026-08-01T08:00:00.000Z", expiring: "2026-09-15T08:00:00.000Z")])
            .constant
        #expect(constant.map(\.key) == ["app.new_flow"])
        #expect(constant.first?.value == .bool(true))
        #expect(constant.first?.lastChange == "2026-09-15T08:00:00.000Z")
    }

    @Test func aScheduleStepWithinTheWindowOrToComeMeansNotConstant() throws {
        let folder = TemporaryDirectory(prefix: "switchboard-stale-schedule")
        folder.write("flags/app.yaml", """
            namespace: app
            flags:
              launched:
                type: bool
                default: false
                schedule:
                  - { at: 2020-01-01T00:00:00Z, serve: true }
              launching:
                type: bool
                default: false
                schedule:
                  - { at: 2099-01-01T00:00:00Z, serve: true }
              launched_lately:
                type: bool
                default: false
                schedule:
                  - { at: 2026-11-20T00:00:00Z, serve: true }
            """)
        let loaded = DefinitionLoader.load(directory: folder.path + "/flags")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        let references = ReferenceScanner(registry: loaded.registry).report(files: [])
        let report = StaleReport(registry: loaded.registry, references: references, audit: [], usage: nil,
                                 days: 30, now: Self.now)
        // Only the flag whose last step took effect before the window; it serves what that step serves.
        #expect(report.constant.map(\.key) == ["app.launched"])
        #expect(report.constant.first?.value == .bool(true))
    }

    @Test func aServersUsageAddsDefinitionsNotEvaluatedLatelyAndUnknownKeys() throws {
        let usage = UsageReport(since: "2026-09-01T00:00:00.000Z", keys: [
            .init(key: "app.old_banner", lastEvaluated: "2026-10-01T00:00:00.000Z", evaluations: 4),
            .init(key: "app.partner_only", lastEvaluated: "2026-11-26T11:00:00.000Z", evaluations: 90),
            .init(key: "app.new_flow", lastEvaluated: "2026-11-25T00:00:00.000Z", evaluations: 12),
            .init(key: "app.checkout_v2", lastEvaluated: nil, evaluations: 0),
        ], unknown: [.init(key: "app.new_flwo", lookups: 3), .init(key: "zzz", lookups: 1)])
        let server = try #require(Self.report(usage: usage).server)
        #expect(server.since == "2026-09-01T00:00:00.000Z")
        #expect(server.countedWholeWindow)
        // The preference is not on that server at all.
        #expect(server.notEvaluated.map(\.key) == ["app.old_banner", "app.checkout_v2", "app.theme"])
        #expect(server.notEvaluated.map(\.lastEvaluated) == ["2026-10-01T00:00:00.000Z", nil, nil])
        #expect(server.notEvaluated.map(\.evaluations) == [4, 0, nil])
        #expect(server.unknown.map(\.key) == ["app.new_flwo", "zzz"])
        #expect(server.unknown.map(\.suggestion) == ["app.new_flow", nil])
    }

    // A server restarted within the window has not seen a whole window: that it saw no evaluation of a key in that
    // time says nothing yet, so nothing is listed as not evaluated (the unknown keys still are).
    @Test func aServerThatCountedForLessThanTheWindowListsNothingAsNotEvaluated() throws {
        let usage = UsageReport(since: "2026-11-20T00:00:00.000Z", keys: [], unknown: [.init(key: "zzz", lookups: 1)])
        let server = try #require(Self.report(usage: usage).server)
        #expect(!server.countedWholeWindow)
        #expect(server.notEvaluated.isEmpty)
        #expect(server.unknown.map(\.key) == ["zzz"])
        // Over a window it has seen whole, it lists them.
        let twoDays = try #require(Self.report(usage: usage, days: 2).server)
        #expect(twoDays.countedWholeWindow)
        #expect(twoDays.notEvaluated.map(\.key) == ["app.old_banner", "app.partner_only", "app.new_flow",
                                                     "app.checkout_v2", "app.theme"])
    }

    @Test func nothingStaleIsEmpty() {
        let usage = UsageReport(since: "2026-09-01T00:00:00.000Z", keys: [], unknown: [])
        var report = Self.report(usage: usage)
        report.expired = []
        report.unreferenced = []
        report.constant = []
        #expect(!report.isEmpty)
        report.server?.notEvaluated = []
        #expect(report.isEmpty)
        #expect(report.keys.isEmpty)
    }
}
