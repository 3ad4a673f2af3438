import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A reload of files that read as they did (a `touch`, a save without a change) publishes nothing: no new
/// revision, so no event reaches every client and every bulk ETag stays. A change of a byte, or a store write, does.
struct UnchangedFilesReloadTests {
    static let definitions = """
        flags:
          banner: { type: bool, default: false }
        """

    @Test func touchingAFileIsNoNewRevision() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        board.reload()
        let revision = board.revision
        let path = project.flags + "/app.yaml"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: path)
        project.write("flags/app.yaml", Self.definitions)
        #expect(board.reload().diagnostics.isEmpty)
        #expect(board.revision == revision)
        project.write("flags/app.yaml", Self.definitions + "\n# a comment\n")
        board.reload()
        #expect(board.revision == revision + 1)
    }

    @Test func aStoreWriteByAnotherProcessStillPublishes() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        board.reload()
        let revision = board.revision
        let other = try openBoard(project.flags)
        try other.set("banner", to: true, actor: "other")
        board.reload()
        #expect(board.revision > revision)
        #expect(board.bool("banner", default: false) == true)
    }
}
