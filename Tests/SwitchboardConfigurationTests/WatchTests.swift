import Configuration
import Switchboard
import SwitchboardConfiguration
import SwitchboardTestSupport
import Testing

/// Watches follow the board's changes: the current state first, then each change to what they read, and only
/// changes.
@Suite struct WatchTests {
    @Test func aValueWatchFiresWhenARuntimeOverrideChanges() async throws {
        let (config, board) = try TestBoard.reader()
        try await config.watchInt(forKey: "app.max_items") { updates in
            let values = AsyncCollector(updates)
            #expect(try await values.next("the current value") == 25)
            try board.set("app.max_items", to: 40, actor: "test")
            #expect(try await values.next("the override") == 40)
            try board.reset("app.max_items", actor: "test")
            #expect(try await values.next("the default again") == 25)
        }
    }

    @Test func aValueWatchIgnoresChangesToOtherKeys() async throws {
        let (config, board) = try TestBoard.reader()
        try await config.watchString(forKey: "app.theme") { updates in
            let values = AsyncCollector(updates)
            #expect(try await values.next("the current value") == "ocean")
            try board.set("app.max_items", to: 40, actor: "test")
            try board.set("app.dark_mode", to: false, actor: "test")
            try board.set("app.theme", to: "forest", actor: "test")
            #expect(try await values.next("the override") == "forest")
            #expect(values.elements == ["ocean", "forest"])
        }
    }

    @Test func aValueWatchReportsAMismatchAsAFailure() async throws {
        let provider = SwitchboardProvider(board: try TestBoard.board())
        try await provider.watchValue(forKey: AbsoluteConfigKey("app.max_items"), type: .bool) { updates in
            let results = AsyncCollector(updates)
            let first = try await results.next("the current result")
            #expect(throws: SwitchboardProvider.TypeMismatch.self) { try first.get() }
        }
    }

    @Test func aSnapshotWatchFiresWhenTheBoardChanges() async throws {
        let (config, board) = try TestBoard.reader()
        try await config.watchSnapshot { updates in
            let snapshots = AsyncCollector(updates)
            #expect(try await snapshots.next("the current snapshot").int(forKey: "app.max_items") == 25)
            try board.set("app.max_items", to: 40, actor: "test")
            let next = try await snapshots.next("the snapshot after the override")
            #expect(next.int(forKey: "app.max_items") == 40)
            #expect(next.string(forKey: "app.theme") == "ocean")
        }
    }

    @Test func aWatchEndsWithItsHandler() async throws {
        let (config, board) = try TestBoard.reader()
        let seen = try await config.watchInt(forKey: "app.max_items") { updates in
            var iterator = updates.makeAsyncIterator()
            return try await iterator.next() ?? nil
        }
        #expect(seen == 25)
        // The watch's subscription is gone: writes after it have nobody to deliver to, and nothing crashes.
        try board.set("app.max_items", to: 40, actor: "test")
        #expect(config.int(forKey: "app.max_items") == 40)
    }
}
