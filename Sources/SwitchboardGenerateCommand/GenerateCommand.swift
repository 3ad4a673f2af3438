public import ArgumentParser
import Foundation
import Switchboard
import SwitchboardCodegen
import SwitchboardTerminal

/// `switchboard generate`: Swift source with a typed key for every definition, written to a file or standard
/// output, or compared with a committed file (`--check`).
public struct GenerateCommand: ParsableCommand {
    /// The command's name, help and discussion.
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift source with a typed key for every flag and preference.",
        discussion: """
            Flags are under `Flags`, preferences under `Prefs`, one enum per key segment: checkout.new_flow \
            becomes Flags.Checkout.newFlow, a FlagKey<Bool> to pass to board.value(_:). A string preference \
            with `values` (and a string flag with variants) gets an enum of its values. Flags past `expires` \
            are marked deprecated, so their uses warn.

            With --check, nothing is written: the command exits 1 when the --output file differs from what \
            it would write (run it in CI beside a committed file).
            """ + "\n\n" + Article.readMore(.typedKeys)
    )

    /// The access levels `--access` takes.
    enum Access: String, ExpressibleByArgument, CaseIterable {
        case `public`, `internal`

        var generatorAccess: AccessorGenerator.Access {
            switch self {
            case .public: .public
            case .internal: .internal
            }
        }
    }

    @Option(name: .long, help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var flags: String = "flags"

    @Option(name: .long, help: ArgumentHelp(
        "The Swift file to write; it is left untouched when already up to date (default: standard output).",
        valueName: "file"))
    var output: String?

    @Option(name: .long, help: "The access level of the generated declarations.")
    var access: Access = .internal

    @Flag(name: .long, help: "Write nothing; exit 1 when the --output file is out of date.")
    var check = false

    @Option(name: .long, help: ArgumentHelp(
        "The day that decides which flags have expired, for reproducible output (default: today, UTC).",
        valueName: "yyyy-mm-dd"))
    var today: String?

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Checks the options.
    public func validate() throws {
        if check && output == nil {
            throw ValidationError("--check needs --output FILE, the generated file to compare")
        }
        if let today, Day(today) == nil {
            throw ValidationError("--today must be a calendar day as YYYY-MM-DD, not '\(today)'")
        }
    }

    /// Generates, writes or checks the source.
    public func run() throws {
        let day = today.flatMap(Day.init) ?? .today()
        let report = DefinitionLoader.load(directory: flags, today: day)
        let errorOutput = Terminal.standardError
        for diagnostic in report.diagnostics { errorOutput.print(diagnostic: diagnostic) }
        if report.hasErrors {
            errorOutput.write(Message.stopped(byErrors: report.errors.count, "nothing was generated"))
            throw ExitCode(1)
        }
        let generated = AccessorGenerator(access: access.generatorAccess, today: day).generate(report.registry)
        for diagnostic in generated.diagnostics { errorOutput.print(diagnostic: diagnostic) }
        if generated.hasErrors {
            errorOutput.write(Message.stopped(byErrors: generated.diagnostics.count(where: \.isError),
                                              in: "the Swift names", "nothing was generated"))
            throw ExitCode(1)
        }
        guard let output else {
            Terminal.standardOutput.write(generated.source)
            return
        }
        let existing = FileManager.default.contents(atPath: output)
        if check {
            try compare(existing, with: generated.source, path: output)
        } else if existing != Data(generated.source.utf8) {
            // Leaving an up-to-date file alone keeps its modification time, so builds do not recompile it.
            try write(generated.source, to: output)
        }
    }

    /// `--check`: succeeds when the file holds exactly the generated source.
    private func compare(_ existing: Data?, with source: String, path: String) throws {
        let terminal = Terminal.standardError
        guard let existing else {
            terminal.print(diagnostic: .error(at: nil, "\(path) does not exist", hint: "run `\(regenerateCommand)`"))
            throw ExitCode(1)
        }
        guard existing != Data(source.utf8) else {
            Terminal.standardOutput.write("\(path) is up to date with \(flags).\n")
            return
        }
        let old = String(decoding: existing, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = source.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(old.count, new.count)) + 1
        terminal.print(diagnostic: .error(
            at: nil, "\(path) is out of date with the definitions in \(flags) (first difference at line \(line))",
            hint: "run `\(regenerateCommand)` and commit the result"))
        throw ExitCode(1)
    }

    /// The command that brings the file up to date, as the user would type it.
    private var regenerateCommand: String {
        var words = ["switchboard", "generate", "--flags", flags, "--output", output ?? ""]
        if access != .internal { words += ["--access", access.rawValue] }
        if let today { words += ["--today", today] }
        return words.map(Self.shellQuoted).joined(separator: " ")
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func write(_ source: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            let message = "cannot create the folder of \(path): \(error.localizedDescription)"
            Terminal.standardError.print(diagnostic: .error(at: nil, message))
            throw ExitCode(1)
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array(source.utf8), to: path)
        } catch {
            Terminal.standardError.print(diagnostic: .error(at: nil, error.description))
            throw ExitCode(1)
        }
    }
}
