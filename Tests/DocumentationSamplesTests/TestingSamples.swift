import Foundation
import Switchboard
import SwitchboardTesting
import Testing
import SwitchboardTestSupport

/// A service of the kind an app's tests check.
struct MyService {
    let board: Board
    var usesNewFlow: Bool { board.bool("new_flow", default: false) }
}

/// The samples of "Testing your code".
@Suite struct TestingSamples {
    @Test func aBoardFromYAMLText() throws {
        let board = try Board.testing(yaml: """
            flags:
              new_flow: { type: bool, default: false }
            """, overrides: ["new_flow": true])
        #expect(MyService(board: board).usesNewFlow)
        try board.set("new_flow", to: false, actor: "test")              // checked exactly as in production
        #expect(!MyService(board: board).usesNewFlow)
    }

    @Test func replicasShareAStore() throws {
        let yaml = "flags:\n  new_flow: { type: bool, default: false }\n"
        let store = InMemoryStore()
        let first = try Board.testing(yaml: yaml, store: store)
        let second = try Board.testing(yaml: yaml, store: store)
        try first.set("new_flow", to: true, actor: "test")
        second.refreshRuntime()                                          // a board on disk polls; this asks now
        #expect(second.bool("new_flow", default: false))
    }

    @Test func anOverrideExpiresWhenTheClockMoves() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: "flags:\n  new_flow: { type: bool, default: false }\n", store: store)
        try board.set("new_flow", to: true, actor: "test", expiresAt: store.clock.date.addingTimeInterval(3600))
        #expect(board.bool("new_flow", default: false))
        store.clock.advance(by: .seconds(3601))                          // the override has expired
        #expect(board.bool("new_flow", default: true) == false)
    }

        @Test func anOutage() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: "flags:\n  new_flow: { type: bool, default: false }\n", store: store)
        store.fail(with: StoreError(message: "the database is down"))
        #expect(throws: Board.SetError.self) { try board.set("new_flow", to: true, actor: "test") }
        #expect(board.bool("new_flow", default: true) == false)          // lookups keep the last values
    }
}
