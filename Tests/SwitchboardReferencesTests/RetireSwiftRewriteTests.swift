import Foundation
import SwiftParser
import SwiftSyntax
import SwitchboardReferences
import SwitchboardTestSupport
import Testing

/// `Retirement`'s rewrite of Swift code: each read of the retired key becomes the kept value, and `if`, `guard`,
/// ternaries and a `let` read once fold on it; what it cannot rewrite is listed where it is.
struct RetireSwiftRewriteTests {
    @Test func eachFormFoldsToTheKeptBranch() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        let checkout = try #require(fixture.after("Sources/App/Checkout.swift", in: plan))
        #expect(checkout == """
            import Switchboard

            func checkout(board: Board) {
                print("new flow")
                print("with cards:", board.value(Flags.Checkout.maxCards))
                let label = "new"
                print(label)
            }

            func summary(board: Board) -> String {
                return "modern"
            }

            func banner(board: Board) {
                print("new")
                if board.bool("checkout.max_cards_enabled_elsewhere") { print("unrelated") }
            }

            """)
        #expect(!Parser.parse(source: checkout).hasError)
    }

    @Test func keepingFalseTakesTheOtherBranches() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "false")
        let checkout = try #require(fixture.after("Sources/App/Checkout.swift", in: plan))
        #expect(checkout.contains("""
            func checkout(board: Board) {
                print("old flow")
                guard false else { return }
                let label = "old"
            """))
        #expect(checkout.contains("""
            func summary(board: Board) -> String {
                return "legacy"
                return "modern"
            """))
        #expect(checkout.contains("""
            func banner(board: Board) {
                if board.bool("checkout.payments_v2") {
                    print("v2")
                }
            """))
        // The guard that now always exits is pointed out.
        #expect(plan.notes.map(\.reason).contains { $0.contains("guard now always exits") })
    }

    /// A key spelt as literals joined with `+` is the key, and its read folds like any other.
    @Test func aKeyJoinedFromLiteralsIsRewritten() throws {
        let fixture = try RetireFixture()
        fixture.directory.write("Sources/App/Joined.swift", """
            import Switchboard

            func joined(board: Board) {
                print(board.bool("checkout." + "new_flow", default: false))
            }

            """)
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        #expect(try #require(fixture.after("Sources/App/Joined.swift", in: plan)).contains("    print(true)\n"))
        let file = fixture.directory.file("Sources/App/Joined.swift")
        #expect(plan.leftovers.filter { $0.position.file == file }.isEmpty)
    }

    /// A fold above a read it leaves moves that read up in the rewritten text; the place listed is the file's own,
    /// as the user opens it (a dry run writes nothing).
    @Test func aLeftoverBelowAFoldIsListedAtItsPlaceOnDisk() throws {
        let fixture = try RetireFixture()
        fixture.directory.write("Sources/App/Moved.swift", """
            import Switchboard

            func moved(board: Board) {
                if board.bool("checkout.new_flow", default: false) {
                    print("new")
                } else {
                    print("old")
                }
                board.observe("checkout.new_flow") { change in print(change) }
            }

            """)
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        let file = fixture.directory.file("Sources/App/Moved.swift")
        #expect(try #require(fixture.after("Sources/App/Moved.swift", in: plan)).contains("""
                print("new")
                board.observe
            """))
        #expect(plan.leftovers.filter { $0.position.file == file }.map { "\($0.position.line):\($0.position.column)" }
            == ["9:19"])
    }

    @Test func whatCannotBeRewrittenIsListedWithItsPlace() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        let file = fixture.directory.file("Sources/App/Leftovers.swift")
        let leftovers = plan.leftovers.filter { $0.position.file == file }
            .map { "\($0.position.line):\($0.position.column) \($0.reason)" }
        #expect(leftovers == [
            "7:19 `observe(…)` does not read the value: remove it by hand",
            "8:23 declares a FlagKey for the key: remove the declaration and its uses by hand",
            // Each use of a FlagKey left in place reads the key too.
            "9:11 uses `key`, the FlagKey declared at \(file):8:23: replace it with the kept value by hand",
            "9:31 `set(…)` does not read the value: remove it by hand",
        ])
        // The read through a FlagKey, under `try await`, becomes the literal; its `let` is used twice, so stays.
        let leftoversText = try #require(fixture.after("Sources/App/Leftovers.swift", in: plan))
        #expect(leftoversText.contains("    let on = true\n    print(on, on)"))
        // Comments and other strings that only look like keys are untouched.
        #expect(leftoversText.contains("// board.bool(\"checkout.new_flow\") in a comment is no reference."))
        #expect(leftoversText.contains("let text = \"checkout.new_flow\""))
    }

    @Test func theGeneratedKeysFileIsNotRewritten() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        #expect(!plan.changes.contains { $0.path.hasSuffix("Flags.swift") })
    }

    @Test func aValueEnumReadIsLeftAndAStringReadGetsTheVariantsValue() throws {
        let fixture = try RetireFixture()
        fixture.directory.write("Sources/App/Color.swift", """
            func color(board: Board) -> String {
                _ = board.value(Flags.Checkout.buttonColor)
                return board.string("checkout.button_color")
            }

            """)
        let plan = try fixture.plan("checkout.button_color", keep: "treatment")
        let color = try #require(fixture.after("Sources/App/Color.swift", in: plan))
        #expect(color.contains("return \"green\""))
        #expect(plan.leftovers.map(\.reason).contains { $0.contains("value enum") })
    }

    @Test func theRewrittenCodeTypeChecks() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        try plan.write()
        let swiftc = try #require(Self.swiftc, "swiftc is not on PATH")
        let files = ["Stubs/Switchboard.swift", "Sources/App/Checkout.swift", "Sources/App/Flags.swift"]
        let result = try runProcess(swiftc, ["-typecheck", "-module-name", "Switchboard"] + files,
                                    in: fixture.directory.path)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `swiftc` beside the `swift` that runs the tests, else on PATH.
    static let swiftc: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
