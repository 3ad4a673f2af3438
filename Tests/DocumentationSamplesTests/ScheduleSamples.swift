import Foundation
import Switchboard
import SwitchboardTesting
import SwitchboardTestSupport
import Testing

/// The samples of "Changes on a schedule".
@Suite struct ScheduleSamples {
    @Test func askingAboutAnotherTime() throws {
        let directory = TemporaryDirectory()
        directory.write("flags/checkout.yaml", """
            namespace: checkout
            flags:
              new_flow:
                type: bool
                default: false
                schedule:
                  - at: 2026-12-01T09:00:00Z
                    rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]
                  - at: 2026-12-03T09:00:00Z
                    serve: true
            """)
        let flags = directory.file("flags")
        let options = BoardOptions(clock: SystemClock())
        let board = try Board(directory: flags, options: options)
        let friday = Date(timeIntervalSince1970: 1_796_461_200)     // 2026-12-05T09:00:00Z
        let then = board.resolve("checkout.new_flow", at: friday)
        #expect(then.value == true)
    }

    @Test func aClockATestMoves() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: """
            flags:
              new_flow:
                type: bool
                default: false
                schedule:
                  - { at: 2026-01-01T09:00:00Z, serve: true }
            """, store: store)
        #expect(board.bool("new_flow", default: true) == false)
        store.clock.advance(by: .seconds(9 * 3600))                     // the step's wake-up runs before this returns
        #expect(board.bool("new_flow", default: false))
    }
}
