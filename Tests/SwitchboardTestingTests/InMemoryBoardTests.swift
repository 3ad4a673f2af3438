import Switchboard
import SwitchboardTesting
import Testing

/// The in-memory board, used as a user's test would use it: a service that reads its settings from a board.
@Suite struct InMemoryBoardTests {
    static let yaml = """
        namespace: checkout
        flags:
          new_flow:
            type: bool
            default: false
        preferences:
          upload.max_mb:
            type: int
            default: 25
            min: 1
            max: 500
        """

    /// A type under test, written against the library's public API only.
    struct UploadPolicy {
        let board: Board
        func accepts(megabytes: Int) -> Bool { megabytes <= board.int("checkout.upload.max_mb", default: 10) }
    }

    @Test func readsDefinitionsFromText() throws {
        let board = try Board.testing(yaml: Self.yaml)
        #expect(board.bool("checkout.new_flow", default: true) == false)
        #expect(UploadPolicy(board: board).accepts(megabytes: 25))
        #expect(!UploadPolicy(board: board).accepts(megabytes: 26))
    }

    @Test func startsWithOverridesAndTakesMore() throws {
        let board = try Board.testing(yaml: Self.yaml, overrides: ["checkout.upload.max_mb": 100])
        #expect(UploadPolicy(board: board).accepts(megabytes: 100))
        try board.set("checkout.new_flow", to: true, actor: "test")
        #expect(board.bool("checkout.new_flow", default: false))
        #expect(board.details("checkout.new_flow", default: false).layer == .runtime)
    }

    @Test func refusesWhatProductionWouldRefuse() throws {
        let board = try Board.testing(yaml: Self.yaml)
        #expect(throws: Board.SetError.self) { try board.set("checkout.upload.max_mb", to: 501, actor: "test") }
        #expect(throws: Board.SetError.self) { try board.set("checkout.nope", to: 1, actor: "test") }
        #expect(throws: LoadError.self) { try Board.testing(yaml: "flags:\n  a: { type: bool, default: 3 }\n") }
        #expect(throws: Board.SetError.self) {
            try Board.testing(yaml: Self.yaml, overrides: ["checkout.upload.max_mb": 0])
        }
    }

    @Test func recordsTheAuditLogWithTheManualClock() throws {
        let clock = ManualClock()
        let board = try Board.testing(yaml: Self.yaml, store: InMemoryStore(clock: clock))
        try board.set("checkout.new_flow", to: true, actor: "alice")
        clock.advance(by: .seconds(90))
        try board.reset("checkout.new_flow", actor: "bob")
        let log = try board.auditLog()
        #expect(log.map(\.time) == ["2026-01-01T00:00:00.000Z", "2026-01-01T00:01:30.000Z"])
        #expect(log.map(\.actor) == ["alice", "bob"])
        #expect(log.map(\.version) == [1, 2])
    }

    @Test func boardsSharingAStoreSeeEachOthersWrites() throws {
        let store = InMemoryStore()
        let a = try Board.testing(yaml: Self.yaml, store: store)
        let b = try Board.testing(yaml: Self.yaml, store: store)
        try a.set("checkout.new_flow", to: true, actor: "test")
        #expect(b.bool("checkout.new_flow", default: false))
    }

    @Test func compareAndSetRefusesAStaleVersion() throws {
        let board = try Board.testing(yaml: Self.yaml)
        let first = try board.set("checkout.upload.max_mb", to: 30, actor: "alice", expectedVersion: 0)
        #expect(board.storedOverride("checkout.upload.max_mb")?.version == first)
        #expect(throws: Board.SetError.self) {
            try board.set("checkout.upload.max_mb", to: 40, actor: "bob", expectedVersion: 0)
        }
        #expect(board.int("checkout.upload.max_mb", default: 0) == 30)
        try board.set("checkout.upload.max_mb", to: 40, actor: "bob", expectedVersion: first)
        #expect(board.int("checkout.upload.max_mb", default: 0) == 40)
    }

    @Test func anOutageKeepsTheLastValuesAndRefusesWrites() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, overrides: ["checkout.new_flow": true], store: store)
        store.fail(with: StoreError(message: "the database is down"))
        #expect(throws: Board.SetError.self) { try board.set("checkout.new_flow", to: false, actor: "test") }
        board.refreshRuntime()
        #expect(board.bool("checkout.new_flow", default: false))
        #expect(board.status.storeProblem?.message == "the database is down")
        store.fail(with: nil)
        board.refreshRuntime()
        #expect(board.status.storeProblem == nil)
    }

    @Test func changesReportEachWrite() async throws {
        let board = try Board.testing(yaml: Self.yaml)
        let changes = board.changes
        try board.set("checkout.new_flow", to: true, actor: "test")
        // The first change, or nil when none comes within a generous deadline.
        let first = await withTaskGroup(of: ValueChange?.self) { group in
            group.addTask { for await change in changes { return change }; return nil }
            group.addTask { try? await Task.sleep(for: .seconds(30)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let change = try #require(first)
        #expect(change.key == "checkout.new_flow")
        #expect(change.old == false)
        #expect(change.new == true)
        #expect(change.layer == .runtime)
    }
}
