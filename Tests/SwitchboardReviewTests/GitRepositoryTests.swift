import Foundation
import SwitchboardReview
import SwitchboardTestSupport
import Testing

/// Reading a definitions folder at a revision with `git`.
@Suite struct GitRepositoryTests {
    @Test func readsTheFilesOfAFolderAtARevision() throws {
        let repository = try GitFixture()
        repository.write("flags/app.yaml", "flags:\n  a:\n    type: bool\n    default: false\n")
        repository.write("README.md", "outside\n")
        try repository.commit("first")
        repository.write("flags/app.yaml", "flags:\n  a:\n    type: bool\n    default: true\n")
        try repository.commit("second")
        let git = try GitRepository(containing: repository.path("flags"))
        #expect(try git.prefix() == "flags/")
        let files = try git.files(at: "HEAD~1", under: "flags")
        #expect(files.map(\.path) == ["flags/app.yaml"])
        #expect(String(decoding: files[0].bytes, as: UTF8.self).contains("default: false"))
    }

    @Test func anUnknownRevisionIsNamed() throws {
        let repository = try GitFixture()
        repository.write("flags/app.yaml", "flags: {}\n")
        try repository.commit("first")
        let git = try GitRepository(containing: repository.path("flags"))
        #expect(throws: ReviewError("unknown revision 'nope'",
                                    hint: "name a commit, branch or tag (git log --oneline lists commits)")) {
            try git.commit("nope")
        }
    }

    @Test func outsideARepositoryIsAnError() throws {
        let folder = TemporaryDirectory(prefix: "switchboard-review-test")
        folder.write("flags/app.yaml", "flags: {}\n")
        #expect(throws: ReviewError.self) { try GitRepository(containing: folder.file("flags")) }
    }
}
