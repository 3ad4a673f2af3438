import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal

/// `switchboard get KEY`: the resolved value.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a key's resolved value (strings unquoted; --json for details).",
        discussion: Article.readMore(.commandLine, .targeting))

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "The key, e.g. checkout.new_flow.")
    var key: String

    @OptionGroup var evaluation: ContextOptions

    @Option(name: .customLong("default"), help: ArgumentHelp(
        "The default a caller would pass, typed by the key's definition: what a disabled flag (or one with no value "
            + "for the context) gives that caller.", valueName: "value"))
    var callerDefault: String?

    @OptionGroup var at: TimeOption

    func run() throws {
        let board = try options.openBoard()
        guard let definition = board.registry[key] else { throw options.unknownKey(key, in: board) }
        var resolution = at.date.map { board.resolve(key, at: $0, context: evaluation.context) }
            ?? board.resolve(key, context: evaluation.context)
        var fallback: Value?
        if let callerDefault {
            switch Value.parse(callerDefault, as: definition.type) {
            case .success(let value): fallback = value
            case .failure(let problem):
                // A usage error (status 2), said here: thrown from `run`, ArgumentParser would print the top
                // command's usage under it rather than get's.
                Terminal.standardError.print(
                    diagnostic: .error(at: nil, "--default for \(key): \(problem.message)", hint: problem.hint))
                throw ExitCode(2)
            }
        }
        if resolution.value == nil, let fallback {
            // What a typed lookup returns: the caller's default, with the resolution's reason.
            resolution.value = fallback
        }
        if options.json {
            let expiresAt = board.expiresAt(of: key, serving: resolution, at: at.date?.timeIntervalSince1970)
            print(resolution.jsonValue(key: key, expiresAt: expiresAt).json)
        } else if let value = resolution.value {
            print(value.plainText)
        } else if resolution.isDisabled {
            print("(\(Message.disabled.text))")
        } else {
            // Defined, but nothing to serve (no default variant, or an evaluation error).
            print("(no value: \(resolution.reason.rawValue))")
        }
        try options.requireReadableStore(board)
    }
}

/// `switchboard explain KEY`: every layer, its origin, and the winner.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show every layer's value for a key, where it came from, and which won.",
        discussion: Article.readMore(.layers, .targeting))

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "The key.")
    var key: String

    @OptionGroup var evaluation: ContextOptions

    @OptionGroup var at: TimeOption

    func run() throws {
        let board = try options.openBoard()
        let asked = at.date.map { board.explain(key, context: evaluation.context, at: $0) }
        guard let explanation = asked ?? board.explain(key, context: evaluation.context) else {
            throw options.unknownKey(key, in: board)
        }
        // The time left as of `--at` when it is given.
        let time = at.date?.timeIntervalSince1970
        let expiresAt = board.expiresAt(of: key, serving: explanation.resolution, at: time)
        if options.json {
            print(explanation.jsonValue(expiresAt: expiresAt).json)
        } else {
            Terminal.standardOutput.write(explanation.rendered(terminal: .standardOutput))
            if let expiresAt, let text = board.expiresText(of: key, serving: explanation.resolution, at: time) {
                print("the runtime override \(text) (\(expiresAt))")
            }
        }
        try options.requireReadableStore(board)
    }
}

/// `switchboard set KEY VALUE [--for DURATION | --until TIME]`: a validated, persisted runtime override, which may
/// expire.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a runtime override; the value is checked against the definition and refused if it does not fit.",
        discussion: """
            With --for or --until the override expires: from that moment it stops counting on every process and \
            replica of the store, and the key falls back to the next layer (env, file, default) with no write by \
            anyone. `switchboard log` shows the expiry as an "expired" entry. Without either it lasts until \
            `switchboard reset KEY`.

              switchboard set checkout.debug true --for 2h
              switchboard set checkout.debug true --until 2026-12-01T18:00:00+01:00

            """ + "\n" + Article.readMore(.layers, .stores))

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "The key.")
    var key: String

    @Argument(help: ArgumentHelp("The value, typed by the key's definition (true, 42, 1.5, text, [1,2], {\"a\":1}); "
                                 + "a negative number after `--`, as in `set KEY -- -5`."))
    var value: String

    @OptionGroup var actor: ActorOption

    // Unconditional: `--for -2h` is a duration refused for being negative, not a missing value and an option -2h.
    @Option(name: .customLong("for"), parsing: .unconditional, help: ArgumentHelp(
        "Expire the override after this long: a whole number and a unit, s, m, h or d (90s, 30m, 2h, 7d; at most "
            + "365d).", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp(
        "Expire the override at this time: RFC 3339 with a zone (2026-12-01T09:00:00Z, 2026-12-01T10:00:00+01:00), "
            + "at most 365 days away.",
        valueName: "time"))
    var until: String?

    func validate() throws {
        _ = try expiry(now: SystemClock().now())
    }

    /// When the override expires, from --for or --until, in seconds since the epoch; a usage error for a bad or
    /// past time, or both options.
    private func expiry(now: Double) throws -> Double? {
        do throws(ExpiryInput.Problem) {
            switch (duration, until) {
            case (.some, .some): throw ExpiryInput.Problem(message: "give either --for or --until, not both")
            case (.some(let duration), nil): return now + (try ExpiryInput.seconds(ofDuration: duration))
            case (nil, .some(let until)): return try ExpiryInput.moment(of: until, now: now)
            case (nil, nil): return nil
            }
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let board = try options.openBoard(writing: true)
        // Measured from now, not from when the options were checked: a slow store must not shorten --for.
        let expiresAt = try expiry(now: SystemClock().now()).map { Date(timeIntervalSince1970: $0) }
        do {
            try board.set(key, text: value, actor: actor.name, expiresAt: expiresAt)
        } catch {
            throw options.failure(error, key: key)
        }
        let resolution = board.resolve(key)
        if options.json {
            print(resolution.jsonValue(key: key, expiresAt: board.expiresAt(of: key, serving: resolution)).json)
        } else if let text = board.expiresText(of: key, serving: resolution) {
            print("\(key) = \(resolution.value?.lineText ?? "") (runtime, \(text))")
        } else {
            print("\(key) = \(resolution.value?.lineText ?? "") (runtime)")
        }
    }
}

/// `switchboard reset KEY` / `reset --all`: removes runtime overrides.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Remove a key's runtime override, or every override with --all.",
        discussion: Article.readMore(.layers, .stores))

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "The key.")
    var key: String?

    @Flag(help: "Remove every runtime override.")
    var all = false

    @OptionGroup var actor: ActorOption

    func validate() throws {
        if all == (key != nil) { throw ValidationError("give either a KEY or --all") }
    }

    func run() throws {
        let inputs = try options.boardInputs()
        let board: Board
        do {
            board = try options.board(from: inputs, writing: true)
        } catch {
            return try resetWithoutDefinitions(in: inputs.store, problems: error.diagnostics)
        }
        if let key { try reset(key, on: board) } else { try resetAll(on: board) }
    }

    /// `reset` when the definitions or override files have errors: the overrides go all the same, straight from the
    /// store (an incident must not wait for a broken edit to be fixed), and the errors are reported as what keeps
    /// the values from being shown. The key is taken as written (its `renamed_from` names are in the definitions).
    private func resetWithoutDefinitions(in store: any RuntimeStore, problems: [Diagnostic]) throws {
        let removed = try options.storeStep { () throws(StoreError) in
            try store.removeLiveOverrides(of: key.map { [$0] }, by: .unverified(actor.name), at: SystemClock().now())
        }
        for diagnostic in problems { Terminal.standardError.print(diagnostic: diagnostic) }
        Terminal.standardError.write(Message.stopped(
            byErrors: problems.count(where: \.isError), in: "the definitions or override files",
            "the store was changed without them, and no value is shown"))
        if let key {
            if options.json {
                return print(Value.object(["key": .string(key), "removed": .bool(!removed.isEmpty)]).json)
            }
            print((removed.isEmpty ? Message.noRuntimeOverride(key: key) : .removedOverride(key: key)).text)
            if removed.isEmpty {
                Terminal.standardError.write("hint: without the definitions, \(key) is taken as written; an override "
                    + "stored under a name it was renamed from is reset by that name\n")
            }
        } else {
            if options.json { return print(Value.object(["ok": true, "removed": .int(removed.count)]).json) }
            print((removed.isEmpty ? Message.noRuntimeOverrides : .removedRuntimeOverrides(removed.count)).text)
        }
    }

    /// Removes a key's runtime override, and prints what the key is now (`--json`: what `get --json` answers, with
    /// `removed`). A key without one is said, and nothing is written.
    private func reset(_ key: String, on board: Board) throws {
        let removed: Bool
        do {
            removed = try board.resetIfOverridden(key, actor: actor.name)
        } catch {
            throw options.failure(error, key: key)
        }
        guard board.registry[key] != nil else {
            // An orphaned override (no definition has the key) went.
            if options.json { return print(Value.object(["key": .string(key), "removed": true]).json) }
            return print(Message.removedOrphanedOverride(key: key).text)
        }
        let resolution = board.resolve(key)
        if options.json {
            guard case .object(var object) = resolution.jsonValue(key: key, expiresAt: nil) else { return }
            object["removed"] = .bool(removed)
            return print(Value.object(object).json)
        }
        let value = "\(resolution.value?.lineText ?? "—") (\(resolution.layer?.rawValue ?? "no layer"))"
        let none = Message.noRuntimeOverride(key: key).text
        if resolution.isDisabled {
            print(removed ? Resolution.disabledLine(key: key) : "\(none); \(Message.disabled.text)")
        } else {
            print(removed ? "\(key) = \(value)" : "\(none); it is \(value)")
        }
    }

    /// Removes every runtime override that counts now, and says how many went (`--json`: `{"ok": true, "removed":
    /// N}`). A store without any is said, and nothing is written.
    private func resetAll(on board: Board) throws {
        let keys: [String]
        do {
            keys = try board.liveOverrideKeys()
            try board.reset(keys: keys, actor: actor.name)
        } catch {
            throw options.failure(error, key: nil)
        }
        if options.json { return print(Value.object(["ok": true, "removed": .int(keys.count)]).json) }
        print((keys.isEmpty ? Message.noRuntimeOverrides : .removedRuntimeOverrides(keys.count)).text)
    }
}

extension GlobalOptions {
    /// Reports a key no definition has, with the nearest keys, and returns the exit status to throw.
    func unknownKey(_ key: String, in board: Board) -> ExitCode {
        failure([board.registry.unknownKeyMessage(key).diagnostic], fields: ["key": .string(key)])
    }

    /// Reports a refused write (an unknown key, a value that does not fit, a store that failed) of `key` (`nil`:
    /// of every key) and returns the exit status to throw. With `--json`: `key` and `error` (the message, without
    /// its hint) beside the diagnostic.
    func failure(_ error: Board.SetError, key: String?) -> ExitCode {
        let diagnostic = error.diagnostic
        var fields: [String: Value] = ["error": .string(diagnostic.message)]
        if let key { fields["key"] = .string(key) }
        return failure([diagnostic], fields: fields)
    }
}

/// `switchboard log`: the audit log of runtime overrides.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print the audit log of runtime overrides: who changed which key, when, from what.",
        discussion: Article.readMore(.stores))

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Option(name: .long, help: ArgumentHelp("Print only the last N records.", valueName: "N"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let store = try options.storeInputs().store
        // Expiries write nothing: they are derived from the records that set them, as of now.
        let records = try options.storeStep { () throws(StoreError) in
            try AuditRecord.history(of: store, limit: limit ?? .max, now: SystemClock().now())
        }
        if options.json {
            print("[" + records.map(\.json).joined(separator: ",") + "]")
        } else {
            Terminal.standardOutput.write(AuditRecord.renderedLog(records, terminal: .standardOutput))
        }
    }
}
