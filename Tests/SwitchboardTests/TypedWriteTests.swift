import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// App code writes where it reads: a typed key's `set(_:to:actor:)` and `reset(_:actor:)` on a board, with the same
/// checks as a write by name (a refused value writes nothing).
struct TypedWriteTests {
    static let upload = FlagKey("app.upload.max_mb", default: 25)
    static let newFlow = FlagKey("app.new_flow", default: false)

    @Test func aTypedKeyIsSetAndReset() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        try board.set(Self.upload, to: 120, actor: "app")
        try board.set(Self.newFlow, to: true, actor: "app")
        #expect(board.value(Self.upload) == 120 && board.value(Self.newFlow))
        #expect(board.storedOverride("app.upload.max_mb")?.actor == "app")
        try board.reset(Self.upload, actor: "app")
        #expect(board.value(Self.upload) == 25)
        #expect(board.storedOverride("app.upload.max_mb") == nil)
    }

    @Test func aRefusedTypedValueWritesNothing() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        #expect(throws: Board.SetError.self) { try board.set(Self.upload, to: 9_000, actor: "app") }
        #expect(board.storedOverride("app.upload.max_mb") == nil)
        #expect(try board.auditLog().isEmpty)
    }
}
