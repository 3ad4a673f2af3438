import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// The keys `switchboard generate` wrote for `Fixtures/flags` (GeneratedKeys.swift) work with a local board and a
/// remote board alike, and so does code written against `FlagReader`.
@Suite struct SharedKeysTests {
    let project = TestProject(fixture: "flags")

    /// What an app would write once for both boards.
    struct Settings: Equatable {
        var newFlow: Bool
        var maxMb: Int
        var ratio: Double
        var greeting: String
        var sortOrder: Prefs.App.SortOrder

        init(_ flags: some FlagReader) {
            newFlow = flags.value(Flags.App.newFlow)
            maxMb = flags.value(Prefs.App.Upload.maxMb)
            ratio = flags.value(Prefs.App.ratio)
            greeting = flags.value(Prefs.App.greeting)
            sortOrder = flags.value(Prefs.App.sortOrder)
        }
    }

    @Test func theSameGeneratedKeysReadBothBoards() async throws {
        let board = try project.board()
        try board.set("app.sort_order", to: "oldest_first", actor: "test")
        try board.set("app.upload.max_mb", to: 64, actor: "test")
        let server = try await LiveServer(board: board)
        let remote = RemoteBoard(try testConfiguration(server.url))
        try await waitUntil("live") { remote.status == .live }

        let local = Settings(board)
        #expect(local == Settings(remote))
        #expect(local.sortOrder == .oldestFirst)
        #expect(local.maxMb == 64)
        #expect(remote.value(Prefs.App.Upload.maxMb) == board.value(Prefs.App.Upload.maxMb))
        #expect(remote.details(Flags.App.newFlow).value == board.details(Flags.App.newFlow).value)
        #expect(remote.details(Prefs.App.Upload.maxMb).reason == .override)
        await remote.stop()
        await server.stop()
    }
}
