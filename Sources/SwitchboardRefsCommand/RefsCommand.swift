public import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardReferences

/// `switchboard refs`: the Swift code that names each key, the keys code names that no file defines, the keys
/// built at run time, and the definitions nothing reads.
public struct RefsCommand: ParsableCommand {
    /// The command's name, help and discussion.
    public static let configuration = CommandConfiguration(
        commandName: "refs",
        abstract: "List the Swift code that reads each flag and preference, and the keys no file defines.",
        discussion: """
            Swift sources are read with Swift's own parser (swift-syntax). A reference is a generated typed key \
            (Flags.Checkout.newFlow, Prefs.App.theme), FlagKey("checkout.new_flow", …), a string key of a \
            lookup or write (board.bool("checkout.new_flow")), or forKey: of a ConfigReader read. Keys built \
            at run time (interpolated or concatenated strings, variables) are listed as dynamic, never guessed. \
            Comments and other strings are not references; code in every #if branch is.

            With --strict, the command exits 1 when code names a key no file defines, or a definition has no \
            reference (except those matched by --allow-unreferenced, say keys other programs read over OFREP).
            """ + "\n\n" + Article.readMore(.retiring)
    )

    @Option(name: .long, help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var flags: String = "flags"

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "The Swift files or folders to read (default: Sources and Tests beside the definitions directory).",
        valueName: "path"))
    var sources: [String] = []

    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false

    @Flag(name: .long, help: "Exit 1 when code names an undefined key or a definition has no reference.")
    var strict = false

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "Keys that may have no reference in the sources, as globs (checkout.*); they are not listed as unreferenced.",
        valueName: "glob"))
    var allowUnreferenced: [String] = []

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Reads the definitions and the sources, and prints the report.
    public func run() throws {
        let report = DefinitionLoader.load(directory: flags)
        let errorOutput = Terminal.standardError
        for diagnostic in report.diagnostics where diagnostic.isError { errorOutput.print(diagnostic: diagnostic) }
        if report.hasErrors {
            let count = report.errors.count
            errorOutput.write("\(count) error\(count == 1 ? "" : "s") in the definitions; no references were read.\n")
            throw ExitCode(1)
        }
        let paths = sources.isEmpty ? defaultSources : sources
        let files = SwiftSourceFiles.find(in: paths).map(Self.relativeToCurrentDirectory)
        var references = ReferenceScanner(registry: report.registry).report(files: files)
        let globs = allowUnreferenced.map(Glob.init)
        references.definitions = references.definitions.map { definition in
            var definition = definition
            definition.isAllowedUnreferenced = globs.contains { $0.matches(definition.key) }
            return definition
        }
        let output = Terminal.standardOutput
        if json {
            output.write(references.json + "\n")
        } else {
            output.write(references.text(files: files.count))
        }
        if strict, !references.undefined.isEmpty || !references.unreferenced.isEmpty {
            errorOutput.print(diagnostic: .error(at: nil, strictFailure(references)))
            throw ExitCode(1)
        }
    }

    /// `Sources` and `Tests` beside the definitions directory.
    private var defaultSources: [String] {
        let parent = URL(fileURLWithPath: flags).standardizedFileURL.deletingLastPathComponent()
        return ["Sources", "Tests"].map { parent.appendingPathComponent($0).path }
    }

    private func strictFailure(_ report: ReferenceReport) -> String {
        var parts: [String] = []
        if !report.undefined.isEmpty { parts.append(Message.count(report.undefined.count, "undefined key read")) }
        if !report.unreferenced.isEmpty {
            parts.append(Message.count(report.unreferenced.count, "definition") + " without a reference")
        }
        return "--strict: " + parts.joined(separator: ", ")
    }

    /// A path relative to the current directory when it is below it, else absolute.
    static func relativeToCurrentDirectory(_ path: String) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
