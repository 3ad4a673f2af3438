import Foundation
import Locking
import Switchboard
import SwitchboardTestSupport
import Testing

/// Handlers run outside every board lock, with the change's values: one that writes, subscribes or cancels completes,
/// chains of writes made by handlers deliver every value in order, and `set` returns after its handlers ran.
@Suite struct ReentrantHandlerTests {
    static let definitions = """
        flags:
          a: { type: bool, default: false }
          b: { type: bool, default: false }
          c: { type: bool, default: false }
          limit: { type: int, default: 10, min: 1, max: 100 }
        """

    private func board() throws -> (TestProject, Board) {
        let project = makeProject(definitions: Self.definitions)
        return (project, try openBoard(project.flags))
    }

    @Test func anObserverThatWritesAnotherKeyCompletes() throws {
        let (project, board) = try board()
        _ = project
        let subscription = board.observe("a") { _ in _ = try? board.set("b", to: true, actor: "observer") }
        try board.set("a", to: true, actor: "main")
        #expect(board.bool("b", default: false))
        #expect(board.storedOverride("b")?.actor == "observer")
        subscription.cancel()
    }

    @Test func aChainOfThreeDeliversEveryValueInOrder() throws {
        let (project, board) = try board()
        _ = project
        let seen = Locked<[String]>([])
        let all = board.subscribe { event in
            guard case .published(let publication) = event else { return }
            for change in publication.changes { seen.withLock { $0.append("\(change.key)=\(change.new!)") } }
        }
        let ab = board.observe("a") { change in
            if change.new == true { _ = try? board.set("b", to: true, actor: "a→b") }
        }
        let bc = board.observe("b") { change in
            if change.new == true { _ = try? board.set("c", to: true, actor: "b→c") }
        }
        let cLimit = board.observe("c") { change in
            #expect(change.old == false && change.new == true && change.layer == .runtime && change.reason == .override)
            _ = try? board.set("limit", to: 42, actor: "c→limit")
        }
        try board.set("a", to: true, actor: "main")
        // Every handler ran before `set` returned, and the subscriber saw the four changes in the order they happened.
        #expect(seen.withLock { $0 } == ["a=true", "b=true", "c=true", "limit=42"])
        #expect(board.int("limit", default: 0) == 42)
        _ = (all, ab, bc, cLimit)
    }

    @Test func aHandlerMaySubscribeAndCancel() throws {
        let (project, board) = try board()
        _ = project
        let inner = Locked<ChangeSubscription?>(nil)
        let innerCalls = Locked(0)
        let outer = Locked<ChangeSubscription?>(nil)
        outer.withLock { $0 = board.observe("a") { _ in
            inner.withLock { inner in
                inner = board.observe("b") { _ in innerCalls.withLock { $0 += 1 } }
            }
            outer.withLock { $0?.cancel() }
        } }
        try board.set("a", to: true, actor: "t")
        try board.set("b", to: true, actor: "t")
        try board.set("a", to: false, actor: "t")
        #expect(innerCalls.withLock { $0 } == 1)
        inner.withLock { $0?.cancel() }
    }

    @Test func observersReceiveTheChangeWithItsValues() throws {
        let (project, board) = try board()
        _ = project
        let received = Locked<[ValueChange]>([])
        let subscription = board.observe("limit") { change in received.withLock { $0.append(change) } }
        try board.set("limit", to: 50, actor: "t")
        try board.reset("limit", actor: "t")
        let changes = received.withLock { $0 }
        #expect(changes.map(\.new) == [.int(50), .int(10)])
        #expect(changes.map(\.old) == [.int(10), .int(50)])
        #expect(changes.map(\.layer) == [.runtime, .default])
        #expect(changes.map(\.reason) == [.override, .static])
        subscription.cancel()
    }

    @Test func writersOnManyThreadsAndAWritingHandlerNeverDeadlock() async throws {
        let (project, board) = try board()
        _ = project
        let delivered = Locked<Set<Int>>([])
        let subscription = board.observe("limit") { change in
            if case .int(let value)? = change.new { delivered.withLock { _ = $0.insert(value) } }
            // A handler that writes, while other threads write too.
            _ = try? board.set("a", to: true, actor: "handler")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in 1...40 {
                group.addTask {
                    _ = try await onOwnThread { try board.set("limit", to: value, actor: "writer") }
                }
            }
            try await group.waitForAll()
        }
        // Nothing deadlocked, the handler's own write landed, and the value in service was delivered. (Not every
        // value is: two writes that land before either publishes are published as one change to the later value.)
        #expect(board.bool("a", default: false))
        #expect(delivered.withLock { $0 }.contains(board.int("limit", default: 0)))
        subscription.cancel()
    }

    @Test func twoBoardsWhoseHandlersWriteToEachOtherNeverDeadlock() async throws {
        let (projectA, boardA) = try board()
        let (projectB, boardB) = try board()
        _ = (projectA, projectB)
        // A's observer mirrors into B and B's into A, while one thread writes A and another writes B.
        let aToB = boardA.observe("limit") { change in
            if let value = change.new { _ = try? boardB.set("limit", to: value, actor: "mirror") }
        }
        let bToA = boardB.observe("a") { change in
            if let value = change.new { _ = try? boardA.set("a", to: value, actor: "mirror") }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = try await onOwnThread { for value in 1...100 { try boardA.set("limit", to: value, actor: "w") } }
            }
            group.addTask {
                _ = try await onOwnThread { for i in 1...200 { try boardB.set("a", to: i % 2 == 0, actor: "w") } }
            }
            try await group.waitForAll()
        }
        #expect(boardB.int("limit", default: 0) == 100)
        #expect(boardA.bool("a", default: true) == true)
        _ = (aToB, bToA)
    }

    @Test func aKeyStreamNeverGoesBackToAnOlderValue() async throws {
        let (project, board) = try board()
        _ = project
        // Writes race the stream's first read; whatever the interleaving, the values it yields only go forward.
        let writer = Task.detached { for value in 1...100 { try board.set("limit", to: value, actor: "w") } }
        let updates = AsyncCollector(board.updates(of: "limit", default: 0))
        var seen: [Int] = []
        while seen.last != 100 { seen.append(try await updates.next()) }
        try await writer.value
        let forward = seen.dropFirst().filter { $0 != 10 }
        #expect(forward.elementsEqual(forward.sorted()), "went back: \(seen)")
    }

    @Test func aCancelledObserverIsNotCalledAgain() throws {
        let (project, board) = try board()
        _ = project
        let calls = Locked(0)
        let subscription = board.observe("a") { _ in calls.withLock { $0 += 1 } }
        try board.set("a", to: true, actor: "t")
        subscription.cancel()
        try board.set("a", to: false, actor: "t")
        #expect(calls.withLock { $0 } == 1)
    }
}
