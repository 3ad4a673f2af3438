import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The runtime store: persistence, audit log, corrupt files, orphans and renamed keys.
struct RuntimeStoreTests {
    /// The overrides persisted in the project's store, as another process reads them.
    func stored(_ project: TestProject) throws -> [String: StoredOverride] {
        try FileStore(path: project.file(".switchboard/overrides.json")).read().entries
    }

    @Test func overridesPersistAcrossBoards() throws {
        let project = makeProject()
        try openBoard(project.flags).set("app.new_flow", to: true, actor: "alice")
        let again = try openBoard(project.flags)
        #expect(again.bool("app.new_flow", default: false))
        let explanation = try #require(again.explain("app.new_flow"))
        guard case .winner = explanation.steps[0].status else {
            Issue.record("runtime should win")
            return
        }
        #expect(explanation.steps[0].origin?.hasPrefix("set by alice at 20") == true)
        #expect(try stored(project)["app.new_flow"]?.value == .bool(true))
    }

    /// A name that could pass for another (here with a line break that would forge a line) is quoted where
    /// `explain` says who set the override, as in the audit log.
    @Test func explainQuotesANameThatCouldPassForAnother() throws {
        let project = makeProject()
        try openBoard(project.flags).set("app.new_flow", to: true, actor: "eve\nset by alice")
        let explanation = try #require(openBoard(project.flags).explain("app.new_flow"))
        #expect(explanation.steps[0].origin?.hasPrefix(#"set by "eve\nset by alice" at 20"#) == true,
                "\(explanation.steps[0].origin ?? "")")
    }

    @Test func auditLogRecordsEveryChange() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        try board.set("app.upload.max_mb", to: 100, actor: "alice")
        try board.set("app.upload.max_mb", to: 200, actor: "bob")
        try board.set("app.upload.max_mb", to: 200, actor: "bob")  // no change, no record
        try board.reset("app.upload.max_mb", actor: "carol")
        let log = try board.auditLog()
        #expect(log.map(\.actor) == ["alice", "bob", "carol"])
        #expect(log.map(\.old) == [nil, .int(100), .int(200)])
        #expect(log.map(\.new) == [.int(100), .int(200), nil])
        #expect(log.allSatisfy { $0.key == "app.upload.max_mb" && $0.time.hasSuffix("Z") })
        let lines = try #require(project.read(".switchboard/audit.jsonl")).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("\"actor\":\"alice\""))
    }

    @Test func corruptStoreIsReportedAndNeverOverwritten() throws {
        let project = makeProject()
        let garbage = "{\"overrides\": {\"app.new_flow\": {\"value\": tru"
        project.write(".switchboard/overrides.json", garbage)
        let board = try openBoard(project.flags)
        let problem = try #require(board.status.storeProblem)
        #expect(problem.message.contains("is corrupt"))
        #expect(problem.hint?.contains("left as it is") == true)
        #expect(board.bool("app.new_flow", default: true) == false)
        #expect(throws: Board.SetError.self) { try board.set("app.new_flow", to: true, actor: "t") }
        #expect(throws: Board.SetError.self) { try board.resetAll(actor: "t") }
        #expect(project.read(".switchboard/overrides.json") == garbage)
    }

    @Test func orphanedOverridesAreKeptAndReported() throws {
        let project = makeProject()
        try openBoard(project.flags).set("app.stress.a", to: 3, actor: "t")
        project.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(of: "stress.a:", with: "stress.c:"))
        let board = try openBoard(project.flags)
        #expect(board.snapshot.orphans["app.stress.a"]?.value == .int(3))
        #expect(board.status.warnings.contains {
            $0.message == "runtime override of app.stress.a is orphaned: no definition has this key"
        })
        try board.set("app.new_flow", to: true, actor: "t")
        #expect(try stored(project)["app.stress.a"] != nil)
        try board.reset("app.stress.a", actor: "t")
        #expect(try stored(project)["app.stress.a"] == nil)
    }

    @Test func renamedKeysKeepTheirOverrides() throws {
        let project = makeProject()
        project.write(".switchboard/overrides.json", """
            {"version": 1, "overrides": {"app.quick_pay": {"value": true, "actor": "old", "time": "2026-01-01T00:00:00Z"}}}
            """)
        let board = try openBoard(project.flags)
        #expect(board.bool("app.express_pay", default: false))
        #expect(board.snapshot.orphans.isEmpty)
        let origin = board.explain("app.express_pay")?.steps[0].origin
        #expect(origin == "set by old at 2026-01-01T00:00:00Z (file store) (stored as app.quick_pay, renamed)")
        try board.set("app.express_pay", to: false, actor: "t")
        #expect(try stored(project).keys.sorted() == ["app.express_pay"])
    }

    @Test func statePathCanBeChosen() throws {
        let project = makeProject()
        let board = try Board(inputs: BoardInputs(directory: project.flags,
                                                  statePath: project.path + "/elsewhere/state.json", environment: [:]),
                              options: BoardOptions(pollInterval: nil))
        try board.set("app.new_flow", to: true, actor: "t")
        #expect(project.read("elsewhere/state.json") != nil)
        let viaEnvironment = try Board(inputs: BoardInputs(directory: project.flags,
                                                           environment: ["SWITCHBOARD_STATE": project.path + "/elsewhere/state.json"]),
                                       options: BoardOptions(pollInterval: nil))
        #expect(viaEnvironment.bool("app.new_flow", default: false))
    }
}
