import ArgumentParser
import Foundation
package import Switchboard
package import SwitchboardReferences
package import SwitchboardTerminal

/// The options that say which Swift code to read and which definitions may go unreferenced: shared by
/// `switchboard refs` and `switchboard stale`, so both read the same code the same way.
package struct ReferenceOptions: ParsableArguments {
    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "The Swift files or folders to read (default: Sources and Tests beside the definitions directory).",
        valueName: "path"))
    var sources: [String] = []

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "Keys that may have no reference in the sources, as globs (checkout.*); they are not listed as unreferenced.",
        valueName: "glob"))
    var allowUnreferenced: [String] = []

    /// Creates the options with their defaults (ArgumentParser fills them in).
    package init() {}

    /// Refuses a `--sources` path that does not exist: a typo or the wrong directory would otherwise read no code
    /// and list every definition as unreferenced.
    package func validate() throws {
        for path in sources where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--sources: there is no file or folder at \(path)")
        }
    }

    /// Reads the sources (those named, else `Sources` and `Tests` beside `flags`) against `registry`, with the
    /// definitions `--allow-unreferenced` matches marked as allowed. When no Swift file was found (run away from
    /// the package, with no `--sources`), says so on `warnings`: every definition would otherwise look unused.
    ///
    /// - Returns: the report, and how many Swift files were read.
    package func report(
        registry: Registry, flags: String, warnings: Terminal
    ) -> (report: ReferenceReport, files: Int) {
        let files = sourceFiles(flags: flags)
        if files.isEmpty {
            warnings.print(diagnostic: .warning(
                at: nil, "no Swift files were read, so every definition is listed as unreferenced",
                hint: "run beside the package's Sources and Tests, or name the code with --sources PATH"))
        }
        var references = ReferenceScanner(registry: registry).report(files: files)
        let globs = allowUnreferenced.map(Glob.init)
        references.definitions = references.definitions.map { definition in
            var definition = definition
            definition.isAllowedUnreferenced = globs.contains { $0.matches(definition.key) }
            return definition
        }
        return (references, files.count)
    }

    /// The Swift files to read: those named, else every file below `Sources` and `Tests` beside `flags`; each
    /// relative to the current directory when it is below it (`switchboard retire` rewrites the same files).
    package func sourceFiles(flags: String) -> [String] {
        let paths = sources.isEmpty ? Self.defaultSources(flags: flags) : sources
        return SwiftSourceFiles.find(in: paths).map(Self.relativeToCurrentDirectory)
    }

    /// `Sources` and `Tests` beside the definitions directory.
    static func defaultSources(flags: String) -> [String] {
        let parent = URL(fileURLWithPath: flags).standardizedFileURL.deletingLastPathComponent()
        return ["Sources", "Tests"].map { parent.appendingPathComponent($0).path }
    }

    /// A path relative to the current directory when it is below it, else absolute.
    package static func relativeToCurrentDirectory(_ path: String) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
