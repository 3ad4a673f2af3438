import Foundation
import Switchboard
import SwitchboardTesting
import SwitchboardTestSupport
import Testing

/// Schedule steps on a board whose clock a test moves: before, at and after each step; a board made after every
/// step; time zones; a step published as a change; a schedule edited while a wake-up is pending.
struct ScheduleBoundaryTests {
    /// 2026-01-01T00:00:00Z, where ``ManualClock`` starts.
    static let start = 1_767_225_600.0

    static let yaml = """
        namespace: checkout
        flags:
          new_flow:
            type: bool
            default: false
            schedule:
              - at: 2026-01-01T01:00:00Z
                rollout: [{ value: true, weight: 0 }, { value: false, weight: 100 }]
              - at: 2026-01-01T03:00:00+01:00
                serve: true
              - at: 2026-01-01T03:00:00Z
                enabled: false
          layout:
            type: string
            variants: { list: list, grid: grid }
            default: list
            schedule:
              - at: 2026-01-01T00:30:00Z
                variant: grid
        preferences:
          max_items:
            type: int
            default: 10
            schedule:
              - { at: 2026-01-01T00:30:00Z, serve: 20 }
        """

    @Test func eachStepTakesEffectAtItsTimeAndNotBefore() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        let clock = store.clock
        #expect(board.bool("checkout.new_flow", default: true) == false)
        #expect(board.string("checkout.layout", default: "") == "list")
        #expect(board.int("checkout.max_items", default: 0) == 10)
        clock.advance(by: .seconds(30 * 60 - 1))
        #expect(board.string("checkout.layout", default: "") == "list")
        clock.advance(by: .seconds(1))
        #expect(board.string("checkout.layout", default: "") == "grid")
        #expect(board.details("checkout.layout", default: "").variant == "grid")
        #expect(board.int("checkout.max_items", default: 0) == 20)
        // 01:00Z: a rollout that gives everyone false, for a keyed context too.
        clock.advance(by: .seconds(30 * 60))
        let keyed = EvaluationContext(targetingKey: "user-1")
        #expect(board.bool("checkout.new_flow", default: true, context: keyed) == false)
        // 03:00+01:00 is 02:00Z.
        clock.advance(by: .seconds(3600 - 1))
        #expect(board.bool("checkout.new_flow", default: false, context: keyed) == false)
        clock.advance(by: .seconds(1))
        #expect(board.bool("checkout.new_flow", default: false, context: keyed) == true)
        #expect(board.bool("checkout.new_flow", default: false) == true)
        // 03:00Z: disabled; the value carried from the step before is not served.
        clock.advance(by: .seconds(3600))
        #expect(board.details("checkout.new_flow", default: false).reason == .disabled)
    }

    @Test func aBoardMadeAfterEveryStepServesTheLast() throws {
        let store = InMemoryStore(clock: ManualClock(Date(timeIntervalSince1970: Self.start + 86_400)))
        let board = try Board.testing(yaml: Self.yaml, store: store)
        #expect(board.details("checkout.new_flow", default: false).reason == .disabled)
        #expect(board.string("checkout.layout", default: "") == "grid")
        #expect(board.int("checkout.max_items", default: 0) == 20)
    }

    @Test func eachStepIsPublishedAsANewRevision() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        let revision = board.revision
        let changes = Recorder()
        let subscription = board.observe("checkout.layout") { change in changes.append(change) }
        store.clock.advance(by: .seconds(30 * 60))
        #expect(board.revision > revision)
        #expect(changes.values.map { $0.new } == [.string("grid")])
        #expect(changes.values.first?.old == .string("list"))
        _ = subscription
    }

    @Test func anOverrideStillWinsOverAStep() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: Self.yaml, store: store)
        try board.set("checkout.max_items", to: 5, actor: "test")
        store.clock.advance(by: .seconds(3600))
        #expect(board.int("checkout.max_items", default: 0) == 5)
        try board.reset("checkout.max_items", actor: "test")
        #expect(board.int("checkout.max_items", default: 0) == 20)
    }
}

/// Collects what a handler receives, from any thread.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ValueChange] = []

    func append(_ change: ValueChange) {
        lock.lock()
        items.append(change)
        lock.unlock()
    }

    var values: [ValueChange] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A schedule edited on disk while the board waits for its next step: the reload sets the wake-up anew.
struct ScheduleReloadTests {
    @Test func anEditedScheduleMovesThePendingWakeUp() throws {
        let directory = TemporaryDirectory()
        func write(_ at: String) {
            directory.write("flags/app.yaml", """
                flags:
                  banner: { type: bool, default: false, schedule: [{ at: "\(at)", serve: true }] }
                """)
        }
        write("2026-01-01T02:00:00Z")
        let clock = ManualClock()
        let board = try Board(directory: directory.file("flags"),
                              options: BoardOptions(pollInterval: nil, clock: clock))
        clock.advance(by: .seconds(3600))
        #expect(board.bool("banner", default: true) == false)
        // Earlier than the pending wake-up (and than now + 30 min): the reload arms the new time.
        write("2026-01-01T01:30:00Z")
        board.reload()
        #expect(board.bool("banner", default: true) == false)
        clock.advance(by: .seconds(30 * 60))
        #expect(board.bool("banner", default: false) == true)
        // Moved into the past: in force at once.
        write("2026-01-01T00:10:00Z")
        board.reload()
        #expect(board.bool("banner", default: false) == true)
    }
}
