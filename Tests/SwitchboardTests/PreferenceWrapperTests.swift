import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `@Preference`: reads the current value, persists an assignment through the board's checks, and refuses a
/// value the definition refuses without writing anything or crashing.
struct PreferenceWrapperTests {
    enum Theme: String, FlagValue { case system, light, dark }

    final class Settings {
        @Preference<Theme, Board> var theme: Theme
        @Preference<Int, Board> var uploadLimit: Int

        init(board: Board) {
            _theme = Preference(FlagKey("app.theme", default: .system), on: board, actor: "settings")
            _uploadLimit = Preference(FlagKey("app.upload.max_mb", default: 25), on: board)
        }
    }

    @Test func anAssignmentIsPersistedAndAudited() throws {
        let project = makeProject()
        let settings = Settings(board: try openBoard(project.flags))
        #expect(settings.theme == .system)
        settings.theme = .dark
        #expect(settings.theme == .dark)
        let again = try openBoard(project.flags)
        #expect(again.string("app.theme", default: "") == "dark")
        #expect(try again.auditLog().last?.actor == "settings")
    }

    @Test func aRefusedAssignmentWritesNothingAndIsReported() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let settings = Settings(board: board)
        settings.uploadLimit = 9_000                       // above the definition's max: 500
        #expect(settings.uploadLimit == 25)
        #expect(board.storedOverride("app.upload.max_mb") == nil)
        let error = try #require(settings.$uploadLimit.lastError as? Board.SetError)
        #expect("\(error)".contains("above the maximum 500"))
        #expect(throws: Board.SetError.self) { try settings.$uploadLimit.set(0) }
        try settings.$uploadLimit.set(100)
        #expect(settings.$uploadLimit.lastError == nil)
        #expect(settings.uploadLimit == 100)
    }

    @Test func theProjectedValueStreamsDetailsAndResets() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let settings = Settings(board: board)
        let updates = AsyncCollector(settings.$theme.updates)
        #expect(try await updates.next() == .system)
        settings.theme = .light
        #expect(try await updates.next() == .light)
        #expect(settings.$theme.details.layer == .runtime)
        try settings.$theme.reset()
        #expect(try await updates.next() == .system)
        #expect(settings.$theme.details.layer == .default)
    }
}
