import Configuration
import Locking
import Switchboard
import SwitchboardConfiguration
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// A snapshot answers from one board snapshot: every read of it agrees, whatever the board publishes meanwhile.
@Suite struct SnapshotTests {
    @Test func aSnapshotKeepsItsValuesWhileTheBoardChanges() throws {
        let (config, board) = try TestBoard.reader()
        let before = config.snapshot()
        try board.set("app.max_items", to: 40, actor: "test")
        try board.set("app.theme", to: "forest", actor: "test")
        #expect(before.int(forKey: "app.max_items") == 25)
        #expect(before.string(forKey: "app.theme") == "ocean")
        let after = config.snapshot()
        #expect(after.int(forKey: "app.max_items") == 40)
        #expect(after.string(forKey: "app.theme") == "forest")
    }

    /// Two keys written in one store write reach the board in one publication; a snapshot taken on another
    /// thread while writes go on never has one without the other.
    @Test func aSnapshotNeverMixesTwoPublications() async throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: TestBoard.yaml, store: store)
        let config = ConfigReader(provider: SwitchboardProvider(board: board))
        let done = Locked(false)
        let reads = Task.detached {
            var mixed: [String] = []
            while !done.withLock({ $0 }) {
                let snapshot = config.snapshot()
                let items = snapshot.int(forKey: "app.max_items")
                let ports = snapshot.intArray(forKey: "app.ports")
                if ports != [items ?? -1], !(items == 25 && ports == [80, 443]) {
                    mixed.append("app.max_items \(items ?? -1), app.ports \(ports ?? [])")
                }
            }
            return mixed
        }
        for round in 1...500 {
            _ = try store.apply([
                OverrideChange(key: "app.max_items", value: .int(round)),
                OverrideChange(key: "app.ports", value: [.int(round)]),
            ], by: .unverified("test"), condition: nil)
            board.refreshRuntime()
        }
        done.withLock { $0 = true }
        #expect(await reads.value == [])
        let last = config.snapshot()
        #expect(last.int(forKey: "app.max_items") == 500)
        #expect(last.intArray(forKey: "app.ports") == [500])
    }

    @Test func aSnapshotReportsMismatchesAndMissingKeysAsTheProviderDoes() throws {
        let snapshot = SwitchboardProvider(board: try TestBoard.board()).snapshot()
        #expect(snapshot.providerName == "SwitchboardProvider")
        #expect(try snapshot.value(forKey: AbsoluteConfigKey("app.no_such_key"), type: .int).value == nil)
        #expect(throws: SwitchboardProvider.TypeMismatch.self) {
            try snapshot.value(forKey: AbsoluteConfigKey("app.max_items"), type: .string)
        }
    }
}
