import Foundation
import Switchboard
import SwitchboardTesting
import Testing

/// Runtime overrides that expire, on a board whose clock a test moves: the value falls back at the expiry, with a
/// change published and nothing written; a step and an expiry at the same instant; replicas agree.
struct OverrideExpiryBoundaryTests {
    static let yaml = """
        flags:
          new_flow:
            type: bool
            default: false
            schedule:
              - { at: 2026-01-01T02:00:00Z, serve: true }
          banner: { type: bool, default: false }
        """

    @Test func anExpiredOverrideFallsBackAtItsTimeAndWritesNothing() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        let clock = store.clock
        try board.set("banner", to: true, actor: "tester", expiresAt: clock.date.addingTimeInterval(3600))
        let version = board.storeVersion
        let changes = Recorder()
        let subscription = board.observe("banner") { changes.append($0) }
        clock.advance(by: .seconds(3599))
        #expect(board.bool("banner", default: false) == true)
        #expect(changes.values.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(board.bool("banner", default: true) == false)
        #expect(board.details("banner", default: true).layer == .default)
        #expect(changes.values.map(\.new) == [.bool(false)])
        // Nothing was written: the store's version is the set's.
        #expect(try store.read().version == version)
        _ = subscription
    }

    @Test func aStepAndAnExpiryAtTheSameInstantBothTakeEffect() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        // The override hides the step's value until both happen at 02:00.
        try board.set("new_flow", to: false, actor: "tester",
                      expiresAt: Date(timeIntervalSince1970: ScheduleBoundaryTests.start + 7200))
        try board.set("banner", to: true, actor: "tester",
                      expiresAt: Date(timeIntervalSince1970: ScheduleBoundaryTests.start + 7200))
        let revision = board.revision
        store.clock.advance(by: .seconds(7200))
        #expect(board.details("new_flow", default: false).layer == .default)
        #expect(board.bool("new_flow", default: false) == true)
        #expect(board.bool("banner", default: true) == false)
        #expect(board.revision > revision)
    }

    @Test func aReplicaMadeAfterTheExpiryNeverRevivesIt() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        try board.set("banner", to: true, actor: "tester", expiresAt: store.clock.date.addingTimeInterval(60))
        store.clock.advance(by: .seconds(61))
        let replica = try Board.testing(yaml: Self.yaml, store: store)
        #expect(replica.bool("banner", default: true) == false)
        #expect(board.bool("banner", default: true) == false)
    }
}
