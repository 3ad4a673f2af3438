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
}
