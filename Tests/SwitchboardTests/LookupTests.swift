import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Typed lookups never throw: a missing key or a wrong type gives the caller's default, a reason and a code.
struct LookupTests {
    enum Theme: String, FlagValue { case system, light, dark }

    @Test func missingKeyGivesTheDefaultWithFlagNotFound() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        #expect(board.bool("app.nope", default: true))
        let details = board.details("app.nope", as: Bool.self, default: true)
        #expect(details.value == true)
        #expect(details.reason == .error)
        #expect(details.errorCode == .flagNotFound)
    }

    @Test func wrongTypeGivesTheDefaultWithTypeMismatch() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        #expect(board.string("app.new_flow", default: "x") == "x")
        let details = board.details("app.new_flow", as: String.self, default: "x")
        #expect(details.errorCode == .typeMismatch)
        #expect(details.errorMessage == "app.new_flow is a bool, not a string")
    }

    @Test func typedKeysAndEnums() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        #expect(board.value(FlagKey("app.theme", default: Theme.dark)) == .system)
        #expect(board.value(FlagKey("app.upload.max_mb", default: 1)) == 25)
        #expect(board.value(FlagKey("app.ratio", default: 0.0)) == 0.5)
        let details = board.details(FlagKey("app.color", default: "red"))
        #expect(details.value == "blue")
        #expect(details.variant == "control")
        #expect(details.reason == .static)
        #expect(details.layer == .default)
    }

    @Test func enumWithoutTheCaseFallsBackToTheDefault() throws {
        enum Narrow: String, FlagValue { case light }
        let project = makeProject()
        let board = try openBoard(project.flags)
        let details = board.details(FlagKey("app.theme", default: Narrow.light))
        #expect(details.value == .light)
        #expect(details.errorCode == .typeMismatch)
    }

    @Test func setRefusesValuesThatDoNotFitAndWritesNothing() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        #expect(throws: Board.SetError.self) { try board.set("app.upload.max_mb", to: 0, actor: "t") }
        #expect(throws: Board.SetError.self) { try board.set("app.theme", to: "purple", actor: "t") }
        #expect(throws: Board.SetError.self) { try board.set("app.new_flow", text: "yes", actor: "t") }
        #expect(throws: Board.SetError.self) { try board.set("app.nope", to: true, actor: "t") }
        #expect(throws: Board.SetError.self) { try board.set("app.ratio", text: ".inf", actor: "t") }
        #expect(!FileManager.default.fileExists(atPath: board.store.location))
        do {
            try board.set("app.theme", to: "purple", actor: "t")
        } catch {
            #expect(error.description == "refused value for app.theme: purple is not an allowed value of app.theme; "
                + "nothing was written\n"
                + "  hint: allowed values: system, light, dark")
        }
    }

    @Test func variantFlagsTakeAVariantNameOrValue() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        try board.set("app.color", text: "treatment", actor: "t")
        #expect(board.resolve("app.color").value == "green")
        try board.set("app.color", text: "blue", actor: "t")
        #expect(board.resolve("app.color").variant == "control")
    }

    @Test func unknownKeySuggestsNearKeys() throws {
        let project = makeProject()
        let board = try openBoard(project.flags)
        do {
            try board.set("app.new_flw", to: true, actor: "t")
        } catch {
            #expect(error.description == "unknown key 'app.new_flw'\n  hint: did you mean 'app.new_flow'?")
        }
    }
}

import Foundation
