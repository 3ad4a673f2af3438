import ArgumentParser
import Foundation
import Switchboard
import SwitchboardConsole
import SwitchboardGenerateCommand
import SwitchboardREPL

/// `switchboard`: validate, inspect and override flags and preferences.
@main
struct SwitchboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Typed feature flags and remote config from YAML.",
        subcommands: [
            ValidateCommand.self, ListCommand.self, GetCommand.self, ExplainCommand.self, SetCommand.self,
            ResetCommand.self, LogCommand.self, ReplCommand.self, ServeCommand.self, GenerateCommand.self,
        ]
    )

    /// Runs the command line, with exit status 2 for usage errors (ArgumentParser's own would be 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var flags: String = "flags"

    @Option(name: .long, help: ArgumentHelp(
        "The runtime override store (default: $SWITCHBOARD_STATE, else .switchboard/overrides.json beside the definitions).",
        valueName: "path"))
    var state: String?

    @Option(name: .customLong("env"), help: ArgumentHelp(
        "The environment whose override file <dir>/environments/<name>.yaml applies (default: $SWITCHBOARD_ENV).",
        valueName: "name"))
    var environmentName: String?

    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false

    /// Board options from the command line.
    var boardOptions: Board.Options {
        Board.Options(environmentName: environmentName, statePath: state, pollInterval: nil)
    }

    /// Opens the board, or prints the diagnostics and exits 1.
    func openBoard() throws -> Board {
        do {
            let board = try Board(directory: flags, options: boardOptions)
            for diagnostic in board.overrideDiagnostics where !json {
                Terminal.standardError.print(diagnostic: diagnostic)
            }
            return board
        } catch {
            if json {
                print(Value.object(["ok": false, "diagnostics": .list(error.diagnostics.map(\.jsonValue))]).json)
            } else {
                for diagnostic in error.diagnostics { Terminal.standardError.print(diagnostic: diagnostic) }
                let count = error.diagnostics.count(where: \.isError)
                Terminal.standardError.write("\(count) error\(count == 1 ? "" : "s") in the definitions or override files; nothing was evaluated.\n")
            }
            throw ExitCode(1)
        }
    }
}

/// The actor recorded in the audit log for command-line changes.
func defaultActor() -> String {
    let environment = ProcessInfo.processInfo.environment
    return environment["SWITCHBOARD_ACTOR"] ?? environment["USER"] ?? environment["LOGNAME"] ?? "cli"
}
