import Foundation
import Locking
import Switchboard
import SwitchboardTestSupport
import Testing

/// `updates(of:)`: a key's typed values, the current one first, then each change of that key from every source,
/// never a repeat, and nothing for other keys.
struct KeyUpdatesTests {
    static let theme = FlagKey("app.theme", default: "unset")

    @Test func currentValueFirstThenEachRuntimeWrite() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let updates = AsyncCollector(board.updates(of: Self.theme))
        #expect(try await updates.next() == "system")
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(try await updates.next() == "dark")
        try board.reset("app.theme", actor: "t")
        #expect(try await updates.next() == "system")
    }

    @Test func otherKeysAndUnchangedValuesYieldNothing() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let updates = AsyncCollector(board.updates(of: Self.theme))
        #expect(try await updates.next() == "system")
        try board.set("app.upload.max_mb", to: 100, actor: "t")
        try board.set("app.theme", to: "system", actor: "t")   // same value, now from the runtime layer
        try board.set("app.theme", to: "light", actor: "t")
        #expect(try await updates.next() == "light")
        #expect(updates.elements == ["system", "light"])
    }

    @Test func aDefinitionsEditAndAReloadReachTheStream() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let limits = AsyncCollector(board.updates(of: FlagKey("app.upload.max_mb", default: 0)))
        #expect(try await limits.next() == 25)
        project.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(of: "default: 25", with: "default: 30"))
        #expect(!board.reload().hasErrors)
        #expect(try await limits.next() == 30)
    }

    @Test func anOverrideFileEditReachesTheStream() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let updates = AsyncCollector(board.updates(of: Self.theme))
        #expect(try await updates.next() == "system")
        project.write("flags/local.overrides.yaml", "overrides:\n  app.theme: light\n")
        _ = board.reload()
        #expect(try await updates.next() == "light")
    }

    @Test func anEnvironmentReloadReachesTheStream() async throws {
        let project = makeProject()
        // The env layer is read at each reload; a board reading another environment sees it then.
        let board = try openBoard(project.flags, environment: ["SWITCHBOARD_APP__THEME": "dark"])
        let updates = AsyncCollector(board.detailedUpdates(of: Self.theme))
        let first = try await updates.next()
        #expect(first.value == "dark" && first.layer == .env)
        try board.set("app.theme", to: "light", actor: "t")
        let second = try await updates.next()
        #expect(second.value == "light" && second.layer == .runtime)
    }

    @Test func aWriteByAnotherBoardOnTheSameStoreReachesTheStream() async throws {
        let project = makeProject()
        let watching = try openBoard(project.flags, poll: .milliseconds(20))
        let writer = try openBoard(project.flags)
        let updates = AsyncCollector(watching.updates(of: Self.theme))
        #expect(try await updates.next() == "system")
        try writer.set("app.theme", to: "dark", actor: "other")
        #expect(try await updates.next() == "dark")
    }

    @Test func endingTheStreamFreesItsObserver() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let task = Task {
            for await _ in board.updates(of: Self.theme) {}
        }
        try await waitUntil("the stream to observe its key") { board.observerCount == 1 }
        task.cancel()
        try await waitUntil("the observer to be released") { board.observerCount == 0 }
    }

    @Test func anUnknownKeyYieldsTheDefaultAsNotFound() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let updates = AsyncCollector(board.detailedUpdates(of: FlagKey("app.nope", default: 7)))
        let first = try await updates.next()
        #expect(first.value == 7)
        #expect(first.errorCode == .flagNotFound)
    }

    @Test func aTypeChangeYieldsTheDefaultUntilItFitsAgain() async throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let updates = AsyncCollector(board.detailedUpdates(of: FlagKey("app.upload.max_mb", default: -1)))
        #expect(try await updates.next().value == 25)
        project.write("flags/app.yaml", sampleDefinitions.replacingOccurrences(
            of: "upload.max_mb:\n    type: int\n    default: 25\n    min: 1\n    max: 500",
            with: "upload.max_mb:\n    type: string\n    default: many"))
        #expect(!board.reload().hasErrors)
        let mismatch = try await updates.next()
        #expect(mismatch.value == -1)
        #expect(mismatch.errorCode == .typeMismatch)
        project.write("flags/app.yaml", sampleDefinitions)
        #expect(!board.reload().hasErrors)
        #expect(try await updates.next().value == 25)
    }

    /// A write reaches the observers of the keys it changed, not those of others.
    @Test func observersOfOtherKeysAreNotCalled() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let calls = Counter()
        let others = (0..<100).map { board.observe("app.other\($0)") { _ in calls.add() } }
        let theme = board.observe("app.theme") { _ in calls.add() }
        try board.set("app.theme", to: "dark", actor: "t")
        #expect(calls.value == 1)
        _ = (others, theme)
    }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let count = Locked(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
