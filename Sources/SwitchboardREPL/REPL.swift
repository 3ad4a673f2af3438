public import Foundation
public import LineEditor
public import Switchboard
public import SwitchboardTerminal

/// The read–eval–print loop around a ``Session``: at a terminal it edits lines with history and Tab completion
/// and reports changes made elsewhere before each prompt; from a pipe or file it runs the lines as a script,
/// with no prompt and no colour.
///
/// ```swift
/// let repl = REPL(board: board, actor: "repl:alice")   // on standard input and output
/// let succeeded = repl.run()
/// ```
public final class REPL {
    /// The session that runs each line.
    public let session: Session
    /// Where lines come from.
    public let editor: LineEditor
    /// Where replies go.
    public let output: Terminal
    /// Where errors and diagnostics go.
    public let errors: Terminal

    /// A loop reading from `editor` into `session`. At a terminal, `reset --all` asks before it removes anything.
    public init(session: Session, editor: LineEditor, output: Terminal = .standardOutput,
                errors: Terminal = .standardError) {
        self.session = session
        self.editor = editor
        self.output = output
        self.errors = errors
        if editor.isInteractive {
            editor.completer = { [unowned session] line, cursor in session.completions(for: line, cursor: cursor) }
            let input = editor.input, display = editor.output
            session.confirm = { question in
                // A separate editor without history, so a "y" is not recalled by the up arrow later.
                guard case .line(let answer) = LineEditor(input: input, output: display).readLine(prompt: question)
                else { return false }
                return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
    }

    /// A loop on standard input and output. At a terminal: colour (unless `NO_COLOR`), a prompt, and history in
    /// ``historyFile(for:environment:)``, whose folder is created if needed. Otherwise a script: no prompt, no
    /// colour, no history.
    public convenience init(board: Board, actor: String) {
        let interactive = LineEditor.isInteractive
        var historyFile: String?
        if interactive, let path = Self.historyFile(for: board.store) {
            try? FileManager.default.createDirectory(
                atPath: FilePaths.directory(of: path), withIntermediateDirectories: true)
            historyFile = path
        }
        // A script gets no colour even when its output goes to a terminal: it is read by programs and logs.
        let output = interactive ? Terminal.standardOutput : Terminal(fd: 1, colors: false)
        let errors = interactive ? Terminal.standardError : Terminal(fd: 2, colors: false)
        self.init(session: Session(board: board, actor: actor, terminal: output, errorTerminal: errors),
                  editor: LineEditor(historyFile: historyFile), output: output, errors: errors)
    }

    /// Whether lines come from a terminal (prompt, editing, questions) rather than a script.
    public var isInteractive: Bool {
        editor.isInteractive
    }

    /// Reads and runs lines until `quit` or the end of input. Returns whether every command succeeded, which
    /// decides a script's exit status; a failed command never ends the loop.
    public func run() -> Bool {
        var succeeded = true
        var lineNumber = 0
        let interactive = editor.isInteractive
        while true {
            if interactive { show(session.changesMadeElsewhere()) }
            let line: String
            switch editor.readLine(prompt: session.prompt) {
            case .line(let text): line = text
            case .cancelled: continue
            case .endOfFile: return succeeded
            }
            lineNumber += 1
            // Also after reading: the user may have sat at the prompt, or the script waited, while others changed
            // things, and the news belongs before this command's answer.
            show(session.changesMadeElsewhere())
            let reply = session.execute(line)
            output.write(reply.output)
            if !reply.errors.isEmpty {
                // A script's errors name their line, since nobody watched them scroll by.
                errors.write(interactive ? reply.errors : "line \(lineNumber): " + reply.errors)
            }
            succeeded = succeeded && reply.succeeded
            if reply.endsSession { return succeeded }
        }
    }

    private func show(_ news: Session.Reply) {
        output.write(news.output)
        errors.write(news.errors)
    }

    /// The history file for a REPL on `store`: `$SWITCHBOARD_REPL_HISTORY` when set (empty: keep no history),
    /// else `repl_history` beside a file store (in `.switchboard/` for other stores), so each project recalls its
    /// own keys.
    public static func historyFile(
        for store: any RuntimeStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let path = environment["SWITCHBOARD_REPL_HISTORY"] { return path.isEmpty ? nil : path }
        guard let path = (store as? FileStore)?.path else { return ".switchboard/repl_history" }
        return FilePaths.join(FilePaths.directory(of: path), "repl_history")
    }
}
