import Foundation
import SwitchboardTestSupport

/// The package's root folder, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL

/// A copy of the repository's example `flags/` in a temporary folder, for samples that write runtime overrides:
/// the repository's own `.switchboard/` is never touched.
func exampleProject() throws -> (directory: TemporaryDirectory, flags: String) {
    let directory = TemporaryDirectory()
    let flags = directory.path + "/flags"
    try FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("flags").path, toPath: flags)
    return (directory, flags)
}
