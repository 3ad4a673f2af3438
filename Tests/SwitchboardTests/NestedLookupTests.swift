import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Typed lookups run the caller's conversion while they read the board's snapshot, and a caller's ``FlagValue``
/// may write to the board and look it up again from there: that works (no lock is held across the conversion),
/// the inner lookup sees the write, and the outer one still answers from the snapshot it started with.
struct NestedLookupTests {
    /// A string that, while it is converted, flips `app.new_flow` on the board and reads it back.
    struct Echo: FlagValue {
        @TaskLocal static var board: Board?
        static var valueType: ValueType { .string }
        var text: String
        var innerRead: Bool?

        init(text: String) {
            self.text = text
        }

        init?(flagValue: Value) {
            guard case .string(let text) = flagValue else { return nil }
            self.text = text
            guard let board = Self.board else { return }
            let before = board.bool("app.new_flow", default: false)
            guard (try? board.set("app.new_flow", to: !before, actor: "nested")) != nil else { return }
            innerRead = board.bool("app.new_flow", default: before)
        }

        var flagValue: Value { .string(text) }
    }

    @Test func aConversionThatWritesAndLooksUpAgainSeesTheNewValue() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        let key = FlagKey("app.color", default: Echo(text: "none"))
        // The thread now holds the current snapshot, so the outer lookups below take the fast path.
        #expect(board.string("app.color", default: "") == "blue")
        for round in 0..<50 {
            let echo = Echo.$board.withValue(board) { board.value(key) }
            #expect(echo.text == "blue")
            #expect(echo.innerRead == (round % 2 == 0))
        }
        #expect(board.bool("app.new_flow", default: true) == false)
        #expect(board.string("app.color", default: "") == "blue")
    }

    @Test func aTargetedValueThroughATypedKey() throws {
        let project = makeProject(definitions: """
            namespace: app
            flags:
              anonymous:
                type: bool
                default: false
                rules:
                  - when: [{ attribute: country, exists: false }]
                    serve: true
            """)
        let board = try openBoard(project.flags)
        #expect(board.value(FlagKey("app.anonymous", default: false)) == true)
        #expect(board.value(FlagKey("app.anonymous", default: false), context: EvaluationContext(attributes: ["country": "DE"])) == false)
    }
}
