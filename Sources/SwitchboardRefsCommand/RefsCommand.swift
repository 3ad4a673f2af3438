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

    @OptionGroup var references: ReferenceOptions

    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false

    @Flag(name: .long, help: "Exit 1 when code names an undefined key or a definition has no reference.")
    var strict = false

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Reads the definitions and the sources, and prints the report.
    public func run() throws {
        let report = DefinitionLoader.load(directory: flags)
        let errorOutput = Terminal.standardError
        if report.hasErrors {
            Diagnostic.reportFailure(report.errors, json: json)
            if !json { errorOutput.write(Message.stopped(byErrors: report.errors.count, "no references were read")) }
            throw ExitCode(1)
        }
        let (references, files) = self.references.report(registry: report.registry, flags: flags,
                                                          warnings: errorOutput)
        let output = Terminal.standardOutput
        if json {
            output.write(references.json + "\n")
        } else {
            output.write(references.text(files: files))
        }
        if strict, !references.undefined.isEmpty || !references.unreferenced.isEmpty {
            errorOutput.print(diagnostic: .error(at: nil, strictFailure(references)))
            throw ExitCode(1)
        }
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
        ReferenceOptions.relativeToCurrentDirectory(path)
    }
}
