import ArgumentParser
import Foundation
import Switchboard
import SwitchboardReferences
import SwitchboardRefsCommand
import SwitchboardTerminal

/// `switchboard retire KEY --keep VALUE`: removes a finished flag from the definitions, the override files and
/// the Swift code, which keeps the value the flag settled on.
struct RetireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire",
        abstract: "Remove a finished flag: its definition, its override-file entries, and its reads in Swift code.",
        discussion: """
            The definition's YAML block goes (with the comment lines directly above it; the rest of the file is \
            left as it is), and so do the key's entries in override files (environments/*.yaml, \
            local.overrides.yaml). In the Swift sources, read with Swift's own parser, each read of the key \
            (board.bool(Flags.Checkout.newFlow), board.value(…), model[…], FlagKey(…), ConfigReader reads with a \
            default) becomes the kept value; `if`, `guard` and ternaries on it keep the kept branch, and a `let` \
            read once is inlined. What cannot be rewritten safely (observe, set, @Preference, a typed value enum) \
            is listed with its place, and left for you.

            It refuses a key another definition `requires`, a value that does not fit the definition, and an edit \
            after which the definitions would not load. Files are written atomically; --dry-run prints the \
            unified diff and writes nothing. A runtime override of the key in the store is reported, not deleted.
            """ + "\n\n" + Article.readMore(.retiring))

    @OptionGroup var options: GlobalOptions<NoJSON>

    @OptionGroup var references: ReferenceOptions

    @Argument(help: "The key to retire.")
    var key: String

    @Option(name: .long, help: ArgumentHelp(
        "The value the code keeps, as `set` takes it: a variant's name, or a value of the flag's type.",
        valueName: "value"))
    var keep: String

    @Flag(name: .long, help: "Print the unified diff of every change and write nothing.")
    var dryRun = false

    func validate() throws {
        // Refused rather than ignored: a script asking for JSON would read a diff or a sentence instead.
        if options.json { throw ValidationError("retire has no --json output; --dry-run prints the unified diff") }
    }

    func run() throws {
        let loaded = DefinitionLoader.load(directory: options.flags)
        let errorOutput = Terminal.standardError
        if loaded.hasErrors {
            for diagnostic in loaded.errors { errorOutput.print(diagnostic: diagnostic) }
            errorOutput.write(Message.stopped(byErrors: loaded.errors.count, "nothing was retired"))
            throw ExitCode(1)
        }
        let plan: Retirement
        do {
            plan = try Retirement.plan(
                key: key, keep: keep, registry: loaded.registry, definitionFiles: loaded.registry.files,
                overrideFiles: overrideFiles, sources: references.sourceFiles(flags: options.flags))
        } catch {
            errorOutput.print(diagnostic: .error(at: nil, "cannot retire \(key): \(error.message)", hint: error.hint))
            throw ExitCode(1)
        }
        let override = runtimeOverride()
        let output = Terminal.standardOutput
        if dryRun {
            output.write(plan.diff)
        } else {
            try plan.write()
            let files = plan.changes.map(\.path)
            output.write("retired \(key), keeping \(plan.kept.lineText): \(Message.count(files.count, "file")) "
                + "changed (\(files.joined(separator: ", ")))\n")
        }
        for leftover in plan.leftovers {
            output.write("left as it was: \(leftover)\n")
        }
        for note in plan.notes { output.write("check: \(note)\n") }
        if let override {
            output.write("note: the store holds a runtime override of \(key) (\(override)); it is not deleted: "
                + "`switchboard reset \(key)` removes it\n")
        }
    }

    /// The override files below the definitions directory: every environment's, and the local one.
    private var overrideFiles: [String] {
        let environments = options.flags + "/environments"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: environments)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { environments + "/" + $0 } + [options.flags + "/local.overrides.yaml"]
    }

    /// The runtime override of the key in the store, as text, if there is one.
    private func runtimeOverride() -> String? {
        guard let board = try? Board(inputs: options.boardInputs(), options: options.boardOptions),
              let step = board.explain(key)?.steps.first(where: { $0.layer == .runtime }), let value = step.value
        else { return nil }
        return value.lineText + (step.origin.map { ", \($0)" } ?? "")
    }
}
