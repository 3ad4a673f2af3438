public import Foundation

/// A fresh directory under the system's temporary folder, removed when the last reference to it goes.
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory; `prefix` starts its name, so a leftover folder tells which tests made it.
    public init(prefix: String = "switchboard-test") {
        path = NSTemporaryDirectory() + prefix + "-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        remove()
    }

    /// The path of `relative` inside the directory.
    public func file(_ relative: String) -> String {
        path + "/" + relative
    }

    /// Writes a file (creating folders) and returns its path.
    @discardableResult
    public func write(_ relative: String, _ text: String) -> String {
        let full = file(relative)
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    /// A file's text, or `nil` when it does not exist.
    public func read(_ relative: String) -> String? {
        try? String(contentsOfFile: file(relative), encoding: .utf8)
    }

    /// Deletes the directory and everything in it now (it is deleted anyway when released).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A test target's `Fixtures` folder, copied into its resource bundle.
public struct FixtureFolder: Sendable {
    /// The folder.
    public let root: URL

    /// The fixtures at `root` (a target passes `Bundle.module.url(forResource: "Fixtures", withExtension: nil)`).
    public init(_ root: URL?) {
        guard let root else { preconditionFailure("the test target has no Fixtures resource") }
        self.root = root
    }

    /// The path of a fixture.
    public func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// A fixture's bytes.
    public func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
    }

    /// A fixture's text.
    public func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }
}
