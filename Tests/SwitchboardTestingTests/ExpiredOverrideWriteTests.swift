import Foundation
import Switchboard
import SwitchboardTesting
import Testing

/// An override past its expiry is no override for writes either: the key shows version 0, `If-Match: "0"` matches,
/// the next write records no old value, and resetting the key writes nothing.
struct ExpiredOverrideWriteTests {
    static let yaml = """
        flags:
          banner: { type: bool, default: false }
        """

    /// A board whose `banner` override (true) expired a second ago.
    func expired() throws -> (board: Board, store: InMemoryStore) {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        try board.set("banner", to: true, actor: "tester", expiresAt: store.clock.date.addingTimeInterval(60))
        #expect(board.storedOverride("banner")?.version == 1)
        store.clock.advance(by: .seconds(61))
        return (board, store)
    }

    @Test func itsKeyIsAtVersionZeroAndIfMatchZeroWrites() throws {
        let (board, store) = try expired()
        #expect(board.storedOverride("banner") == nil)
        try board.set("banner", to: true, actor: "tester", expectedVersion: 0)
        #expect(board.storedOverride("banner")?.version == 2)
        #expect((try store.auditLog(limit: 100)).last?.old == nil)
    }

    @Test func theNextWriteRecordsNoOldValue() throws {
        let (board, store) = try expired()
        try board.set("banner", to: true, actor: "tester")
        #expect((try store.auditLog(limit: 100)).map(\.old) == [nil, nil])
        #expect(board.bool("banner", default: false) == true)
    }

    @Test func resettingItWritesNothing() throws {
        let (board, store) = try expired()
        let version = try store.read().version
        try board.reset("banner", actor: "tester")
        #expect(try store.read().version == version)
        #expect((try store.auditLog(limit: 100)).count == 1)
        // Compare-and-set with the version it had before it expired is a conflict: it is at 0 now.
        #expect(throws: Board.SetError.self) { try board.reset("banner", actor: "tester", expectedVersion: 1) }
    }
}
