import Foundation
import SwitchboardTestSupport
import Testing

/// `validate` of a folder with no definitions file says so: a CI job pointed at the wrong folder would otherwise
/// pass with nothing checked. A warning, since a new project starts empty.
@Suite struct EmptyDefinitionsFolderTests {
    @Test func anEmptyFolderIsAWarning() throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("flags")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try runSwitchboard(["validate", "--flags", folder])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("warning: no definitions file in '\(folder)'\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 definitions in 0 files, 0 errors, 1 warning\n"))
    }
}
