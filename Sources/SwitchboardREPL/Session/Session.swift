public import LineEditor
public import Switchboard
public import SwitchboardTerminal

/// One REPL session on a board: runs command lines one at a time and says what to print.
///
/// A session knows nothing about terminals or processes, so it can be driven directly:
///
/// ```swift
/// let session = Session(board: board, actor: "repl:alice")
/// let reply = session.execute("set app.theme dark")
/// print(reply.output, terminator: "")      // app.theme = dark (runtime)
/// ```
///
/// Changes go through the board's runtime store, so they persist and reach other processes; changes other
/// processes make are returned by ``changesMadeElsewhere()``, which the loop calls before each prompt.
public final class Session {
    /// What running one command line produced.
    public struct Reply: Sendable, Equatable {
        /// Text for standard output, each line ending in a line break.
        public var output: String
        /// Text for standard error: errors with their hints, and diagnostics.
        public var errors: String
        /// Whether the command did what it was asked; scripts exit 1 when any command did not.
        public var succeeded: Bool
        /// Whether the session should end (`quit`).
        public var endsSession: Bool

        /// Creates a reply.
        public init(output: String = "", errors: String = "", succeeded: Bool = true, endsSession: Bool = false) {
            self.output = output
            self.errors = errors
            self.succeeded = succeeded
            self.endsSession = endsSession
        }
    }

    /// The board the session reads and changes.
    public let board: Board
    /// Who changes are recorded as in the audit log: `repl:alice`.
    public let actor: String
    /// How answers are styled: colours only when they go to a terminal.
    public let terminal: Terminal
    /// How errors and diagnostics are styled, which may differ when only one of the streams is a terminal.
    public let errorTerminal: Terminal
    /// Asks the user a yes/no question before `reset --all`; `nil` (a script) means go ahead without asking.
    public var confirm: ((String) -> Bool)?
    /// The evaluation context lookups use, set with the `context` command.
    public internal(set) var context: EvaluationContext = .empty

    var tracker: ChangeTracker
    /// The errors of the last failed reload that the user has been shown, so each broken edit is told once.
    var reportedReloadErrors: [Diagnostic] = []

    /// A session on `board` whose changes are recorded as made by `actor`, with answers styled for `terminal`
    /// and errors for `errorTerminal` (by default the same).
    public init(board: Board, actor: String, terminal: Terminal = Terminal(fd: 1, colors: false),
                errorTerminal: Terminal? = nil, confirm: ((String) -> Bool)? = nil) {
        self.board = board
        self.actor = actor
        self.terminal = terminal
        self.errorTerminal = errorTerminal ?? terminal
        self.confirm = confirm
        self.tracker = ChangeTracker(board: board, context: .empty)
    }

    /// Runs one command line. Bad input never throws: it comes back as an unsuccessful reply that explains it.
    public func execute(_ line: String) -> Reply {
        do {
            guard let command = try CommandParser.parse(line) else { return Reply() }
            return run(command)
        } catch {
            return failure(error.message, hint: error.hint)
        }
    }

    /// What changed outside this session since it last looked: resolved values changed by other processes or by
    /// edits to the definition files, one `* …` line each in ``Reply/output``, and, once, the errors of an edit
    /// that broke the definitions in ``Reply/errors`` (and, once, that they are fixed, when they are). Checks the
    /// store and the files first (when the board watches them), so a change made a moment ago is included.
    public func changesMadeElsewhere() -> Reply {
        board.checkForChanges()
        let output = tracker.changes(board: board, context: context)
            .map { "* " + $0.rendered(terminal: terminal) + "\n" }.joined()
        let errors = board.health.reloadErrors
        guard errors != reportedReloadErrors else { return Reply(output: output) }
        reportedReloadErrors = errors
        guard !errors.isEmpty else {
            // Fixed since: say so, once, as the errors were said.
            let fixed = "the definitions' errors are fixed; using the edited definitions "
                + "(\(Message.count(board.registry.count, "key")))"
            return Reply(output: output + terminal.dim("* " + fixed) + "\n")
        }
        let summary = "the definitions changed and have \(errors.count) error\(errors.count == 1 ? "" : "s"); "
            + "still using the last good definitions"
        return Reply(output: output, errors: errors.map { errorTerminal.render($0) + "\n" }.joined()
            + errorTerminal.red(summary) + "\n")
    }

    /// What Tab offers for `line` with the cursor after `cursor` characters.
    public func completions(for line: String, cursor: Int) -> LineEditor.Completion {
        let attributes = (context.targetingKey == nil ? [] : ["targetingKey"]) + context.attributes.keys.sorted()
        return Completer(registry: board.registry, attributes: attributes).complete(line, cursor: cursor)
    }

    /// The prompt: `switchboard> `, naming the targeting key when the context has one.
    public var prompt: String {
        var name = "switchboard"
        if let key = context.targetingKey {
            name += "[\(key)]"
        } else if !context.isEmpty {
            name += "[context]"
        }
        return terminal.bold(name + ">") + " "
    }

    private func run(_ command: Command) -> Reply {
        switch command {
        case .list(let pattern): list(pattern)
        case .get(let key, let time): get(key, at: time)
        case .explain(let key, let time): explain(key, at: time)
        case .set(let key, let text, let expiry): set(key, text: text, expiry: expiry)
        case .toggle(let key, let expiry): toggle(key, expiry: expiry)
        case .reset(let key): reset(key)
        case .resetAll: resetAll()
        case .showContext: showContext()
        case .setContext(let assignments): setContext(assignments)
        case .clearContext(let names): clearContext(names)
        case .changed: changed()
        case .log(let count): log(count)
        case .reload: reload()
        case .help(let topic): help(topic)
        case .quit: Reply(endsSession: true)
        }
    }

    // MARK: - Replies

    /// An unsuccessful reply: `error: message` and an optional hint, like every diagnostic.
    func failure(_ message: String, hint: String? = nil) -> Reply {
        Reply(errors: errorTerminal.render(.error(at: nil, message, hint: hint)) + "\n", succeeded: false)
    }

    /// The reply for a key with no definition, suggesting the nearest keys.
    func unknownKey(_ key: String) -> Reply {
        let message = board.registry.unknownKeyMessage(key)
        return failure(message.text, hint: message.hint)
    }
}
