import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `@Preference(key)` with no store: it reads and writes `Preferences.defaultStore`; with none set, a read gives
/// the key's default and a write throws, and nothing traps. One test, since the default store is the process's.
struct DefaultPreferenceStoreTests {
    enum Theme: String, FlagValue { case system, light, dark }

    final class Settings {
        @Preference(FlagKey("app.theme", default: Theme.system)) var theme
        @Preference(FlagKey("app.upload.max_mb", default: 25), actor: "settings") var uploadLimit
    }

    @Test func thePropertyUsesTheDefaultStoreOnceItIsSet() throws {
        try withProcessWideState { try useTheDefaultStore() }
    }

    private func useTheDefaultStore() throws {
        let settings = Settings()
        // No store yet: the key's default, a refused write, no trap.
        #expect(Preferences.defaultStore == nil)
        #expect(settings.theme == .system)
        #expect(settings.uploadLimit == 25)
        settings.uploadLimit = 99
        #expect(settings.uploadLimit == 25)
        #expect(settings.$uploadLimit.lastError != nil)
        #expect(settings.$theme.details.errorCode == .providerNotReady)

        let project = makeProject()
        let board = try openBoard(project.flags)
        Preferences.defaultStore = board
        defer { Preferences.defaultStore = nil }
        #expect(settings.uploadLimit == 25)
        settings.uploadLimit = 99
        settings.theme = .dark
        #expect(board.int("app.upload.max_mb", default: 0) == 99)
        #expect(board.storedOverride("app.upload.max_mb")?.actor == "settings")
        #expect(settings.theme == .dark)
        try settings.$theme.reset()
        #expect(settings.theme == .system)
    }
}
