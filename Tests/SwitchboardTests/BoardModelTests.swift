import Foundation
import Locking
import Observation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `BoardModel` with Observation: a read inside `withObservationTracking` registers that key alone.
struct BoardModelTests {
    @Test func aChangeToTheKeyReadTriggersTracking() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let model = BoardModel(board)
        let fired = Locked(0)
        let theme = withObservationTracking {
            model[FlagKey("app.theme", default: "")]
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        #expect(theme == "system")
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(fired.withLock { $0 } == 1)
        #expect(model[FlagKey("app.theme", default: "")] == "dark")
    }

    @Test func aChangeToAnotherKeyDoesNotTrigger() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let model = BoardModel(board)
        let fired = Locked(0)
        _ = model.value("app.upload.max_mb", default: 0)   // followed, but not read in the tracked closure
        withObservationTracking {
            _ = model[FlagKey("app.theme", default: "")]
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        try board.set("app.upload.max_mb", to: 100, actor: "t")
        try board.set("app.new_flow", to: true, actor: "t")
        #expect(fired.withLock { $0 } == 0)
        #expect(model.observedKeyCount == 2)
    }

    @Test func theModelWritesAndResetsAndItsOnChangeMayWrite() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let model = BoardModel(board)
        let theme = FlagKey("app.theme", default: "")
        withObservationTracking {
            _ = model[theme]
        } onChange: {
            // Where the change is delivered, outside every board lock: writing here completes.
            try? model.set(FlagKey("app.upload.max_mb", default: 0), to: 200, actor: "onChange")
        }
        try model.set(theme, to: "dark", actor: "settings")
        #expect(model[theme] == "dark")
        #expect(board.int("app.upload.max_mb", default: 0) == 200)
        #expect(throws: Board.SetError.self) { try model.set(theme, to: "purple") }
        #expect(model[theme] == "dark")
        try model.reset(theme)
        #expect(model[theme] == "system")
        #expect(board.storedOverride("app.theme") == nil)
    }
}
