import Foundation
import SwitchboardTestSupport
import Testing

/// `generate --output` and `store export --to` given a folder say so, in words, and write nothing beside it
/// (Foundation's answer was `NSCocoaErrorDomain error 512`).
@Suite struct OutputIsAFolderTests {
    @Test(arguments: [["generate", "--output"], ["store", "export", "--to"]])
    func aFolderIsRefusedInWords(_ command: [String]) throws {
        let project = makeProject()
        let folder = project.flags + "/out"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try runSwitchboard(command + [folder, "--flags", project.flags])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: cannot write \(folder): it is a folder, not a file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + ".tmp"))
    }

    @Test func aFileIsWritten() throws {
        let project = makeProject()
        let path = project.flags + "/../export.json"
        let result = try runSwitchboard(["store", "export", "--to", path, "--flags", project.flags])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
