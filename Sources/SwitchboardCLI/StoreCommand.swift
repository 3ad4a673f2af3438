import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal

/// `switchboard store export|import`: moves runtime overrides and their audit log between stores.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Move runtime overrides and the audit log between stores (the file store and PostgreSQL).",
        discussion: Article.readMore(.stores),
        subcommands: [ExportCommand.self, ImportCommand.self]
    )

    /// `switchboard store export --to FILE`.
    struct ExportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the store's overrides and audit log, with their actors, times and versions, as JSON.",
            discussion: Article.readMore(.stores))

        @OptionGroup var options: GlobalOptions<PrintsJSON>

        @Option(name: .long, help: ArgumentHelp("The file to write (- for standard output).", valueName: "file"))
        var to: String

        func run() throws {
            let store = try options.storeInputs().store
            let export = try options.storeStep { () throws(StoreError) in try StoreExport(from: store) }
            if to == "-" {
                FileHandle.standardOutput.write(Data(export.json.utf8))
                return
            }
            do throws(AtomicFile.Failure) {
                try AtomicFile.write(Array(export.json.utf8), to: to)
            } catch {
                Terminal.standardError.print(diagnostic: .error(at: nil, error.description))
                throw ExitCode(1)
            }
            let count = export.contents.entries.count
            Terminal.standardError.write("exported \(Message.count(count, "override")) and "
                + "\(Message.count(export.audit.count, "audit record")) from \(store.location) to \(to)\n")
        }
    }

    /// `switchboard store import FILE`.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Fill an empty store from an export, keeping the original actors, times and versions.",
            discussion: Article.readMore(.stores))

        @OptionGroup var options: GlobalOptions<PrintsJSON>

        @Argument(help: "The export to read.")
        var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                let diagnostic: Diagnostic = FileManager.default.fileExists(atPath: file)
                    ? .error(at: nil, "cannot read \(file)", hint: "check its permissions")
                    : .error(at: nil, "there is no file at \(file)",
                             hint: "name a file that switchboard store export wrote")
                throw options.failure([diagnostic])
            }
            let export = try options.storeStep { () throws(StoreError) in
                try StoreExport(json: String(decoding: data, as: UTF8.self), source: file)
            }
            let store = try options.storeInputs().store
            try options.storeStep { () throws(StoreError) in try store.importing(export) }
            Terminal.standardError.write("imported \(Message.count(export.contents.entries.count, "override")) and "
                + "\(Message.count(export.audit.count, "audit record")) into \(store.location)\n")
        }
    }
}
