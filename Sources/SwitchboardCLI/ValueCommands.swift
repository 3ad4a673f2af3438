import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal

/// `switchboard get KEY`: the resolved value.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a key's resolved value (strings unquoted; --json for details).",
        discussion: Article.readMore(.commandLine, .targeting))

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key, e.g. checkout.new_flow.")
    var key: String

    @OptionGroup var evaluation: ContextOptions

    @Option(name: .customLong("default"), help: ArgumentHelp(
        "The default a caller would pass, typed by the key's definition: what a disabled flag (or one with no value "
            + "for the context) gives that caller.", valueName: "value"))
    var callerDefault: String?

    func run() throws {
        let board = try options.openBoard()
        guard let definition = board.registry[key] else { throw unknownKey(key, in: board) }
        var resolution = board.resolve(key, context: evaluation.context)
        var fallback: Value?
        if let callerDefault {
            switch Value.parse(callerDefault, as: definition.type) {
            case .success(let value): fallback = value
            case .failure(let problem):
                throw ValidationError("--default for \(key): \(problem.message)"
                    + (problem.hint.map { " (\($0))" } ?? ""))
            }
        }
        if resolution.value == nil, let fallback {
            // What a typed lookup returns: the caller's default, with the resolution's reason.
            resolution.value = fallback
        }
        if options.json {
            print(resolution.jsonValue(key: key).json)
        } else if let value = resolution.value {
            print(value.plainText)
        } else if resolution.isDisabled {
            print("(\(Message.disabled.text))")
        } else {
            // Defined, but nothing to serve (no default variant, or an evaluation error).
            print("(no value: \(resolution.reason.rawValue))")
        }
    }
}

/// `switchboard explain KEY`: every layer, its origin, and the winner.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show every layer's value for a key, where it came from, and which won.",
        discussion: Article.readMore(.layers, .targeting))

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key.")
    var key: String

    @OptionGroup var evaluation: ContextOptions

    func run() throws {
        let board = try options.openBoard()
        guard let explanation = board.explain(key, context: evaluation.context) else {
            throw unknownKey(key, in: board)
        }
        if options.json {
            print(explanation.jsonValue.json)
        } else {
            Terminal.standardOutput.write(explanation.rendered(terminal: .standardOutput))
        }
    }
}

/// `switchboard set KEY VALUE`: a validated, persisted runtime override.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a runtime override; the value is checked against the definition and refused if it does not fit.",
        discussion: Article.readMore(.layers, .stores))

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key.")
    var key: String

    @Argument(help: "The value, typed by the key's definition (true, 42, 1.5, text, [1,2], {\"a\":1}).")
    var value: String

    @Option(help: "Who is making the change, for the audit log (default: $SWITCHBOARD_ACTOR, else $USER).")
    var actor: String?

    func run() throws {
        let board = try options.openBoard()
        do {
            try board.set(key, text: value, actor: actor ?? defaultActor())
        } catch {
            if options.json {
                print(Value.object(["ok": false, "key": .string(key), "error": .string(error.description)]).json)
            } else {
                Terminal.standardError.write("error: \(error.description)\n")
            }
            throw ExitCode(1)
        }
        let resolution = board.resolve(key)
        if options.json {
            print(resolution.jsonValue(key: key).json)
        } else {
            print("\(key) = \(resolution.value?.plainText ?? "") (runtime)")
        }
    }
}

/// `switchboard reset KEY` / `reset --all`: removes runtime overrides.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Remove a key's runtime override, or every override with --all.",
        discussion: Article.readMore(.layers, .stores))

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key.")
    var key: String?

    @Flag(help: "Remove every runtime override.")
    var all = false

    @Option(help: "Who is making the change, for the audit log.")
    var actor: String?

    func validate() throws {
        if all == (key != nil) { throw ValidationError("give either a KEY or --all") }
    }

    func run() throws {
        let board = try options.openBoard()
        do {
            if all {
                try board.resetAll(actor: actor ?? defaultActor())
            } else if let key {
                try board.reset(key, actor: actor ?? defaultActor())
            }
        } catch {
            Terminal.standardError.write("error: \(error.description)\n")
            throw ExitCode(1)
        }
        if options.json {
            print(Value.object(["ok": true]).json)
        } else if let key, board.registry[key] != nil {
            let resolution = board.resolve(key)
            print("\(key) = \(resolution.value?.plainText ?? "") (\(resolution.layer?.rawValue ?? ""))")
        } else if let key {
            print("removed the orphaned override of \(key)")
        } else {
            print("every runtime override removed")
        }
    }
}

/// Reports a key no definition has, with the nearest keys, and returns the exit status to throw.
func unknownKey(_ key: String, in board: Board) -> ExitCode {
    let message = board.registry.unknownKeyMessage(key)
    Terminal.standardError.print(diagnostic: message.diagnostic)
    return ExitCode(1)
}

/// `switchboard log`: the audit log of runtime overrides.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print the audit log of runtime overrides: who changed which key, when, from what.",
        discussion: Article.readMore(.stores))

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Print only the last N records.", valueName: "N"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let store = try options.boardInputs().store
        let records = try storeStep { () throws(StoreError) in try store.auditLog(limit: limit ?? .max) }
        if options.json {
            print("[" + records.map(\.json).joined(separator: ",") + "]")
        } else {
            Terminal.standardOutput.write(AuditRecord.renderedLog(records, terminal: .standardOutput))
        }
    }
}
