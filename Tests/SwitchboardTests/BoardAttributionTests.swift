import Testing
import Switchboard
import SwitchboardTestSupport

/// A board's writes record who made them: the `as:` methods the whole attribution, the `actor:` methods an
/// unverified actor. The override keeps the recorded actor.
struct BoardAttributionTests {
    let project = makeProject()
    static let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)

    @Test func writesAsAnAttributionRecordAllOfIt() throws {
        let board = try openBoard(project.flags)
        try board.set("app.upload.max_mb", to: 100, as: Self.verified)
        #expect(board.storedOverride("app.upload.max_mb")?.actor == "ana")
        try board.set("app.upload.max_mb", text: "200", as: Self.verified, expectedVersion: 1)
        try board.reset("app.upload.max_mb", as: Self.verified, expectedVersion: 2)
        try board.set("app.new_flow", to: true, as: Self.verified)
        try board.resetAll(as: Attribution(actor: "ops", verified: true))
        let log = try board.auditLog()
        #expect(log.map(\.attribution) == [Self.verified, Self.verified, Self.verified, Self.verified,
                                           Attribution(actor: "ops", verified: true)])
        #expect(log.map(\.key) == ["app.upload.max_mb", "app.upload.max_mb", "app.upload.max_mb", "app.new_flow",
                                   "app.new_flow"])
    }

    @Test func writesByActorNameAreUnverified() throws {
        let board = try openBoard(project.flags)
        try board.set("app.upload.max_mb", to: 100, actor: "alice")
        try board.set("app.upload.max_mb", text: "200", actor: "bob")
        try board.reset("app.upload.max_mb", actor: "carol")
        try board.set("app.new_flow", to: true, actor: "dave")
        try board.resetAll(actor: "erin")
        #expect(try board.auditLog().map(\.attribution) == ["alice", "bob", "carol", "dave", "erin"].map {
            Attribution.unverified($0)
        })
    }
}
