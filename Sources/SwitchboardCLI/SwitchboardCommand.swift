import ArgumentParser
import Foundation
import Logging
import Switchboard
import SwitchboardTerminal
import SwitchboardGenerateCommand
import SwitchboardPostgres
import SwitchboardRefsCommand

/// `switchboard`: validate, inspect and override flags and preferences.
@main
struct SwitchboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Typed feature flags and remote config from YAML.",
        discussion: Article.readMore(.gettingStarted, .commandLine),
        version: SwitchboardVersion.current,
        subcommands: [
            ValidateCommand.self, ListCommand.self, GetCommand.self, ExplainCommand.self, SetCommand.self,
            ResetCommand.self, LogCommand.self, StoreCommand.self, ReplCommand.self, ServeCommand.self,
            GenerateCommand.self, RefsCommand.self, StaleCommand.self, RetireCommand.self, DiffCommand.self,
            AccessCommand.self, VersionCommand.self,
        ]
    )

    /// Runs the command line, with exit status 2 for usage errors (ArgumentParser's own would be 64).
    static func main() async {
        if let directory = FlagsOption.prefetchableDirectory(CommandLine.arguments.dropFirst()) {
            DefinitionPrefetch.start(directory: directory)
        }
        // `help NAME` for a NAME that is no command: ArgumentParser prints the overview and exits 0.
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "help", let unknown = unknownCommand(arguments.dropFirst().first) { refuse(unknown) }
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure, let unknown = unknownCommand(CommandLine.arguments.dropFirst().first) {
                refuse(unknown)
            }
            if code == .validationFailure {
                // A refusal that carries a hint writes it on a line of its own (`--store`'s).
                let parts = message(for: error).components(separatedBy: "\n  hint: ")
                reportJSONUsageError(.error(at: nil, parts[0], hint: parts.count > 1 ? parts[1] : nil))
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

extension SwitchboardCommand {
    /// Prints the error for a word that names no command and exits with status 2, as for any usage error.
    static func refuse(_ unknown: Diagnostic) -> Never {
        reportJSONUsageError(unknown)
        Terminal.standardError.print(diagnostic: unknown)
        Foundation.exit(2)
    }

    /// With `--json` on the command line, a usage error is also the failure object on standard output that every
    /// other failure prints there: a script reading standard output gets one JSON document whatever went wrong. The
    /// text, with the usage, still goes to standard error.
    static func reportJSONUsageError(_ diagnostic: Diagnostic) {
        let arguments = CommandLine.arguments.dropFirst().prefix { $0 != "--" }
        guard arguments.contains("--json") else { return }
        Diagnostic.reportFailure([diagnostic], json: true)
    }

    /// The error for a first argument that names no subcommand, with the nearest name (the same suggestions as
    /// the REPL's); `nil` when it is an option or a subcommand, so ArgumentParser reports the rest.
    static func unknownCommand(_ word: String?) -> Diagnostic? {
        guard let word, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        // Words other tools use for a command of ours, which spelling alone would not find (`unset` is as near
        // `set` as `reset`).
        let synonyms = ["unset": "reset", "delete": "reset", "remove": "reset", "rm": "reset", "ls": "list"]
        let hint = (synonyms[word] ?? Suggestions.nearest(to: word, in: names))
            .map { Message.didYouMean(one: $0) + " (switchboard help lists the commands)" }
        return .error(at: nil, "unknown command '\(word)'", hint: hint ?? "switchboard help lists the commands")
    }
}

/// `--flags`: its default, and the guess at it made before the command line is parsed. Not generic, unlike
/// ``GlobalOptions``: the guess runs first thing, and a generic type's first use checks its parameter's conformance,
/// a walk over the binary's 16,800 conformance records, before the prefetch could begin.
enum FlagsOption {
    /// The definitions directory when `--flags` is not given.
    static let defaultFlags = "flags"

    /// The one-shot commands that only read the definitions and load them as ``DefinitionPrefetch`` does (at the
    /// clock's time, with no board): their load can begin before the command line is parsed. `list`, `get` and
    /// `explain` open a board, which loads at a time it reads from its clock, so a prefetch would go unused.
    ///
    /// An array, not a set: it is read before anything else, and a `Set<String>`'s first use made the runtime walk
    /// the binary's 16,800 protocol conformance records (to check `String: Hashable`) before the prefetch began.
    static let prefetchingCommands = ["validate", "stale"]

    /// The definitions directory `arguments` (without the program's name) will load, when they run one of the
    /// ``prefetchingCommands`` at the clock's time (no `--at`): the last `--flags` value, else ``defaultFlags``. A
    /// guess made before ArgumentParser reads the line: when it is wrong, or the line is refused, the prefetch is
    /// only unused work.
    static func prefetchableDirectory(_ arguments: ArraySlice<String>) -> String? {
        guard let command = arguments.first, prefetchingCommands.contains(command),
              !arguments.contains(where: { ["--help", "-h", "--", "--at"].contains($0) || $0.hasPrefix("--at=") })
        else { return nil }
        var directory = defaultFlags
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--flags", let value = rest.popFirst() {
                directory = value
            } else if argument.hasPrefix("--flags=") {
                directory = String(argument.dropFirst("--flags=".count))
            }
        }
        return directory
    }
}

/// Whether a command's help lists `--json`: every command takes it, and those with no JSON output take it only to
/// refuse it with a pointer to one that has, so their help leaves it out.
protocol JSONOutput {
    /// How `--json` shows in the command's help.
    static var visibility: ArgumentVisibility { get }
}

/// A command with JSON output: its help lists `--json`.
enum PrintsJSON: JSONOutput {
    static var visibility: ArgumentVisibility { .default }
}

/// A command without JSON output (`repl`, `serve`, `retire`): `--json` is refused, and not listed.
enum NoJSON: JSONOutput {
    static var visibility: ArgumentVisibility { .hidden }
}

/// Options every command shares.
struct GlobalOptions<Output: JSONOutput>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var flags: String = FlagsOption.defaultFlags

    @Option(name: .long, help: ArgumentHelp(
        "The runtime override store (default: $SWITCHBOARD_STATE, else .switchboard/overrides.json beside the definitions).",
        valueName: "path"))
    var state: String?

    @Option(name: .customLong("env"), help: ArgumentHelp(
        "The environment whose override file <dir>/environments/<name>.yaml applies (default: $SWITCHBOARD_ENV).",
        valueName: "name"))
    var environmentName: String?

    @Option(name: .long, help: ArgumentHelp(
        "The runtime override store: postgres://user:password@host:port/database[?sslmode=require] for PostgreSQL "
            + "(default: $SWITCHBOARD_STORE, else the file store at --state).",
        valueName: "url"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file whose first line is the database password (instead of the URL or $PGPASSWORD).",
        valueName: "path"))
    var storePasswordFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "The scope of the overrides in a shared database (default: $SWITCHBOARD_SCOPE, else the environment name, "
            + "else `default`).",
        valueName: "name"))
    var scope: String?

    @Flag(name: .long, help: ArgumentHelp("Print machine-readable JSON.", visibility: Output.visibility))
    var json = false

    /// A `--store` that is no PostgreSQL URL is a usage error (exit status 2), found before anything is read; one
    /// from `$SWITCHBOARD_STORE` fails when the store is opened (exit status 1), as a database that is away does.
    func validate() throws {
        guard let store, !store.isEmpty else { return }
        do throws(StoreError) {
            _ = try PostgresStore.Endpoint(url: store, environment: [:])
        } catch {
            throw ValidationError(error.message + (error.hint.map { "\n  hint: \($0)" } ?? ""))
        }
    }

    /// The board's inputs from the command line; a database store is opened here, so a bad URL, a wrong password
    /// or a missing database fails before anything else, and the message never shows the password; so does a file
    /// store's path that cannot be a file.
    func boardInputs() throws -> BoardInputs {
        let environment = ProcessInfo.processInfo.environment
        var store: (any RuntimeStore)?
        if let url = self.store ?? environment["SWITCHBOARD_STORE"], !url.isEmpty {
            let scope = scope ?? environment["SWITCHBOARD_SCOPE"]
                ?? (environmentName ?? environment["SWITCHBOARD_ENV"]).flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            store = try storeStep { () throws(StoreError) in
                try PostgresStore(url: url, scope: scope, passwordFile: storePasswordFile)
            }
        }
        let inputs = BoardInputs(directory: flags, environmentName: environmentName, statePath: state,
                                 environment: environment, store: store)
        // A state path that can never be a file (a folder, a path below a file) fails here, with exit status 1,
        // rather than as a warning beside values read without the store.
        if let fileStore = inputs.store as? FileStore, let problem = FileStore.problem(withPath: fileStore.path) {
            _ = try storeStep { () throws(StoreError) in throw problem }
        }
        return inputs
    }

    /// The inputs of a command that reads or writes only the runtime store (`log`, `store export`, `store import`).
    /// When the store is the one beside the definitions, a definitions directory that is not there is refused
    /// (exit status 1) as every command that loads refuses it: a mistyped `--flags` or another working directory
    /// would otherwise read as an empty store.
    func storeInputs() throws -> BoardInputs {
        let inputs = try boardInputs()
        if inputs.storeFollowsDirectory, let directory = inputs.directory,
           var problem = DefinitionLoader.directoryProblem(directory)
        {
            problem.hint = "run in a project with a flags/ folder, pass --flags DIR, or name the store with "
                + "--state PATH or --store URL"
            throw failure([problem])
        }
        return inputs
    }

    /// How a command's board behaves: no polling, and no logging, since the command line presents what a board
    /// reports (diagnostics, REPL notices) itself; `serve` changes both.
    var boardOptions: BoardOptions {
        BoardOptions(pollInterval: nil, logger: Logger(label: "switchboard") { _ in SwiftLogNoOpLogHandler() })
    }

    /// A board of `inputs`, with the warnings about their overrides printed (`writing`: but the store's problem,
    /// which the write reports itself).
    ///
    /// - Throws: ``LoadError`` when the definitions or override files have errors; nothing is printed then.
    func board(from inputs: BoardInputs, writing: Bool) throws(LoadError) -> Board {
        let board = try Board(inputs: inputs, options: boardOptions)
        let storeProblem = writing ? board.health.storeProblem?.diagnostic : nil
        for diagnostic in board.overrideWarnings where diagnostic != storeProblem {
            Terminal.standardError.print(diagnostic: diagnostic)
        }
        return board
    }

    /// Opens the board, or prints the diagnostics and exits 1. The override warnings (a store that cannot be read
    /// among them) go to standard error with `--json` too: standard output stays one JSON document, and a script
    /// still sees them.
    ///
    /// - Parameter writing: for `set` and `reset`, whose refused write reports a store that cannot be read; the
    ///   warnings then leave it out, so it is said once.
    func openBoard(writing: Bool = false) throws -> Board {
        let inputs = try boardInputs()
        do {
            return try board(from: inputs, writing: writing)
        } catch {
            let status = failure(error.diagnostics)
            if !json {
                Terminal.standardError.write(Message.stopped(
                    byErrors: error.diagnostics.count(where: \.isError), in: "the definitions or override files",
                    "nothing was evaluated"))
            }
            throw status
        }
    }

    /// Ends a command that printed an answer read from `board` with exit status 1 when the runtime store could not
    /// be read: the answer was made without the runtime layer, so a script must not take it for the answer. (The
    /// store's error was printed when the board opened.)
    func requireReadableStore(_ board: Board) throws {
        if board.health.storeProblem != nil { throw ExitCode(1) }
    }

    /// Reports what stopped a command (``Diagnostic/reportFailure(_:json:fields:)``: with `--json`, one object on
    /// standard output), and returns exit status 1 to throw.
    func failure(_ diagnostics: [Diagnostic], fields: [String: Value] = [:]) -> ExitCode {
        Diagnostic.reportFailure(diagnostics, json: json, fields: fields)
        return ExitCode(1)
    }

    /// Runs a step that talks to a store; a store error is reported with its hint (``failure(_:fields:)``), and
    /// the command exits 1.
    func storeStep<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw failure([error.diagnostic])
        }
    }
}

/// `--actor NAME` of `set` and `reset`: who makes the change, for the audit log.
struct ActorOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Who is making the change, for the audit log (default: $SWITCHBOARD_ACTOR, else $USER, else $LOGNAME, "
            + "else cli)."))
    var actor: String?

    func validate() throws {
        try Self.refuseEmpty(actor)
    }

    /// The actor to record: `--actor`, else ``defaultActor()``.
    var name: String { actor ?? defaultActor() }

    /// An empty or blank `--actor` (`--actor "$NAME"` with `NAME` unset, say) is a usage error: the audit log
    /// would record no one.
    static func refuseEmpty(_ actor: String?) throws {
        if let actor, actor.allSatisfy(\.isWhitespace) {
            throw ValidationError("--actor is empty: give a name, or leave it out for the default ($SWITCHBOARD_ACTOR, "
                + "else $USER)")
        }
    }
}

/// The actor recorded in the audit log for command-line changes: `$SWITCHBOARD_ACTOR`, else the user's name
/// (``userName()``), else `cli`.
func defaultActor() -> String {
    nonEmptyVariable("SWITCHBOARD_ACTOR") ?? userName() ?? "cli"
}

/// The user's name from `$USER`, else `$LOGNAME`; `nil` when neither is set to anything.
func userName() -> String? {
    nonEmptyVariable("USER") ?? nonEmptyVariable("LOGNAME")
}

/// An environment variable's value; `nil` when it is unset or empty (`USER= switchboard set …` names no actor).
func nonEmptyVariable(_ name: String) -> String? {
    ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
}
