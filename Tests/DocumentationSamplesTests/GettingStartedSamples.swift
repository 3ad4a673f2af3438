import Foundation
import Switchboard
import Testing
import SwitchboardTestSupport

/// The samples of the articles "Getting started" and "Preferences in your app".
///
/// A sample that opens `Board(directory: "flags")` reads the repository's example definitions: `swift test` runs
/// in the package's root. Samples that write get a board on a copy of them.
@Suite struct GettingStartedSamples {
    @Test func openABoardAndLookUp() throws {
        try #require(FileManager.default.fileExists(atPath: "flags/app.yaml"), "run from the package's root")
        let board = try Board(directory: "flags")
        if board.bool("checkout.new_flow", default: false) {
            print("the redesigned checkout flow")
        }
        let limit = board.int("app.upload.max_mb", default: 25)
        #expect(limit >= 1)
    }

    @Test func lookUpWithAContext() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags)

        let user = EvaluationContext(targetingKey: "user-42", attributes: ["plan": "pro", "app_version": "2.3.0"])
        let ranking = board.bool("search.new_ranking", default: false, context: user)
        _ = ranking
    }

    @Test func detailsSayWhy() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags)

        let details = board.details("checkout.new_flow", as: Bool.self, default: false)
        // details.value, .variant, .reason (STATIC, TARGETING_MATCH, ...), .layer, .errorCode, .errorMessage
        let missing = board.details("checkout.no_such_flag", as: Bool.self, default: false)
        assert(missing.errorCode == .flagNotFound)                  // and missing.value is the default, false
        #expect(details.reason == .static && missing.errorCode == .flagNotFound)
    }
}
