import Foundation
@testable import Switchboard
import Testing

/// A definitions directory that is not there: the hint says how to give one from the command line and in code, and
/// for a relative path, which working directory it was read from (in code, often not the project's).
struct MissingDefinitionsDirectoryTests {
    @Test func aRelativePathNamesTheWorkingDirectory() throws {
        let problem = try #require(DefinitionLoader.directoryProblem("no/such/flags"))
        #expect(problem.message == "definitions directory 'no/such/flags' does not exist")
        #expect(problem.hint == "run where the flags/ folder is, or give its path (--flags DIR; Board(directory:) in "
            + "code); a relative path is read from the working directory, "
            + FileManager.default.currentDirectoryPath)
    }

    @Test func anAbsolutePathNeedsNoWorkingDirectory() throws {
        let problem = try #require(DefinitionLoader.directoryProblem("/no/such/flags"))
        #expect(problem.hint == "run where the flags/ folder is, or give its path (--flags DIR; Board(directory:) in "
            + "code)")
    }
}
