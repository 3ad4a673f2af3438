import Foundation
import Testing
import Switchboard
import SwitchboardTestSupport

/// What `changes` delivers for this process's own writes and reloads, and what a failed reload keeps.
struct ChangeDeliveryTests {
    @Test func changesDeliversSetResetAndReload() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let changes = AsyncCollector(board.changes)
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(try await changes.next().new == .string("dark"))
        try board.reset("app.theme", actor: "t")
        #expect(try await changes.next().new == .string("system"))
        project.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(of: "default: 25", with: "default: 30"))
        let report = board.reload()
        #expect(!report.hasErrors)
        let change = try await changes.next()
        #expect(change.key == "app.upload.max_mb" && change.new == .int(30))
    }

    @Test func badReloadKeepsTheLastGoodDefinitions() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        project.write("flags/app.yaml", "flags:\n  broken: [\n")
        let report = board.reload()
        #expect(report.hasErrors)
        #expect(board.int("app.upload.max_mb", default: 0) == 25)
        #expect(!board.status.reloadErrors.isEmpty)
    }
}
