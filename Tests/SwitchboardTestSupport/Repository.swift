import Foundation

/// The package's source tree, for tests that read files beside the tests (golden files they may rewrite, another
/// target's fixtures, the example `flags/`): always inside the repository.
public enum Repository {
    /// The package root: two levels above this file's folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A path under the package root.
    public static func path(_ relative: String) -> String {
        root + "/" + relative
    }
}
