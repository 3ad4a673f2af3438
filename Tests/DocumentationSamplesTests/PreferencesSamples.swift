import Observation
import Switchboard
import SwitchboardTesting
import Testing
import SwitchboardTestSupport

/// The values of `app.history.sort_order`, as an app declares them.
enum SortOrder: String, FlagValue {
    case newestFirst = "newest_first"
    case oldestFirst = "oldest_first"
}

/// Typed keys, held where the app's code can reach them.
enum Keys {
    static let sortOrder = FlagKey("app.history.sort_order", default: SortOrder.newestFirst)
    static let uploadLimit = FlagKey("app.upload.max_mb", default: 25)
}

/// The samples of "Preferences in your app".
@Suite struct PreferencesSamples {
    @Test func typedKeys() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags)

        let sort = board.value(Keys.sortOrder)            // SortOrder.newestFirst
        let limit = board.value(Keys.uploadLimit)         // 25
        #expect(sort == .newestFirst)
        #expect(limit == 25)
    }

    @Test func aValueTheEnumDoesNotKnow() throws {
        // A definition that gained a value after the app's enum was written.
        let board = try Board.testing(yaml: """
            namespace: app
            preferences:
              history.sort_order: { type: string, values: [newest_first, oldest_first, alphabetical], default: alphabetical }
            """)

        let details = board.details(Keys.sortOrder)
        if details.errorCode == .typeMismatch {
            print("no case for the stored value:", details.errorMessage ?? "")
        }
        #expect(details.value == .newestFirst)
    }

    @Test func setAndReset() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        try board.set("app.upload.max_mb", to: 100, actor: "alice")       // validated, persisted, audited
        try board.reset("app.upload.max_mb", actor: "alice")
        #expect(board.int("app.upload.max_mb", default: 0) == 25)
    }

    @Test func typedWrites() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        let uploadLimit = FlagKey("app.upload.max_mb", default: 25)
        try board.set(uploadLimit, to: 200, actor: "settings-screen")
        try board.reset(uploadLimit, actor: "settings-screen")
        #expect(board.value(uploadLimit) == 25)
        #expect(try board.auditLog().map(\.actor) == ["settings-screen", "settings-screen"])
    }

    @Test func anObserverThatWrites() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        try board.set("checkout.new_flow", to: true, actor: "alice")
        try board.set("app.upload.max_mb", to: 300, actor: "alice")

        let resetLimit = board.observe("checkout.new_flow") { change in
            if change.new == false { _ = try? board.reset("app.upload.max_mb", actor: "new-flow-off") }
        }
        try board.set("checkout.new_flow", to: false, actor: "alice")
        #expect(board.int("app.upload.max_mb", default: 0) == 25)
        resetLimit.cancel()
    }

    @Test func theModelWrites() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        let model = BoardModel(board)

        try model.set(FlagKey("app.theme", default: "system"), to: "dark", actor: "settings-screen")
        try model.reset(FlagKey("app.theme", default: "system"), actor: "settings-screen")
        #expect(try board.auditLog().map(\.new) == ["dark", nil])
        #expect(board.string("app.theme", default: "") == "system")
    }

    @Test func theDefaultStore() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        withProcessWideState {
            Preferences.defaultStore = board                    // once, at start-up
            defer { Preferences.defaultStore = nil }
            let settings = DisplaySettings()
            settings.theme = .light
            #expect(board.string("app.theme", default: "") == "light")
        }
    }

    @Test func followChanges() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        let changes = board.changes                                   // subscribes now
        try board.set("app.theme", to: "dark", actor: "alice")
        for await change in changes {                                 // set/reset, reloads, other processes
            print(change.key, change.old ?? "-", "→", change.new ?? "-")
            if change.key == "app.theme" { break }
        }
    }

    @Test func settingsModel() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }

        let board = try Board(directory: flags)
        let settings = Settings(board: board)
        settings.theme = .dark                         // validated, persisted atomically, audited as settings-screen
        for await theme in settings.$theme.updates {   // the value now, then each change, from any source
            apply(theme)
            if theme == .dark { break }
        }
        #expect(settings.support.email == "help@example.com")
    }

    @Test func perKeyStream() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        try board.set("app.theme", to: "dark", actor: "alice")

        for await theme in board.updates(of: "app.theme", default: "system") {
            print("app.theme =", theme)                // "system" at once, then each new value
            if theme == "dark" { break }
        }
    }

    @Test func observation() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        let model = BoardModel(board)
        withObservationTracking {
            print("theme:", model.value("app.theme", default: "system"))
        } onChange: {
            print("app.theme changed")                 // once, for a change of app.theme only
        }
        try board.set("app.theme", to: "dark", actor: "alice")
        #expect(model.value("app.theme", default: "system") == "dark")
    }

    @Test func propertyWrapperHandle() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        let settings = Settings(board: board)

        try settings.$theme.set(.light)                // throws when the definition refuses the value
        print(settings.$theme.details.reason)          // OVERRIDE: a runtime override
        try settings.$theme.reset()                    // the value underneath again
        if let error = settings.$theme.lastError { print("refused:", error) }
        #expect(settings.theme == .system)
    }
}

enum Theme: String, FlagValue { case system, light, dark }
struct Support: CodableFlagValue, Equatable {    // the value of `app.support` (type: object)
    var email: String
    var url: String
}

final class DisplaySettings {
    @Preference(FlagKey("app.theme", default: Theme.system)) var theme
}

final class Settings {
    @Preference<Theme, Board> var theme: Theme
    @Preference<Support, Board> var support: Support

    init(board: Board) {
        _theme = Preference(FlagKey("app.theme", default: .system), on: board, actor: "settings-screen")
        _support = Preference(FlagKey("app.support", default: Support(email: "help@example.com", url: "")), on: board)
    }
}

/// What the app does with a new theme.
func apply(_ theme: Theme) {
    print("theme:", theme)
}
