#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// A small line editor for interactive prompts: single-line editing with the usual Emacs-style keys,
/// history (browsed with the arrows and kept in a file) and Tab completion, written on termios.
///
/// ```swift
/// let editor = LineEditor(historyFile: "/home/me/.switchboard_history")
/// editor.completer = { line, cursor in .matching(["get", "set", "list"], line: line, cursor: cursor) }
/// while true {
///     switch editor.readLine(prompt: "\u{1B}[1mswitchboard>\u{1B}[0m ") {
///     case .line(let line): run(line)
///     case .cancelled: continue
///     case .endOfFile: return
///     }
/// }
/// ```
///
/// When the input is not a terminal (a pipe, a file), `readLine` reads plain lines with no prompt and no
/// terminal handling, so the same REPL can run a script.
///
/// The editor buffers what it reads, keeping keys typed ahead (or lines piped in) for the next call, so all
/// reading from its input should go through it. It is not thread-safe; use it from one thread at a time.
public final class LineEditor {
    /// The result of reading one line.
    public enum ReadResult: Sendable, Equatable {
        /// A line was entered (without its line terminator).
        case line(String)
        /// Ctrl-C was pressed: the line was discarded. Read again for a new prompt.
        case cancelled
        /// Input ended: Ctrl-D on an empty line, or end of file.
        case endOfFile
    }

    /// Finds completions for `line` with the cursor after `cursor` characters (grapheme clusters).
    public typealias Completer = (_ line: String, _ cursor: Int) -> Completion

    /// Called on Tab; `nil` makes Tab do nothing.
    public var completer: Completer?

    /// The descriptor keys and lines are read from.
    public let input: Int32
    /// The descriptor the prompt and line are drawn on.
    public let output: Int32
    /// The file history is loaded from and saved to, or `nil` to keep history in memory only.
    public let historyFile: String?
    /// The most history entries kept, in memory and in the file.
    public let maxHistory: Int

    private var storedHistory: History
    private var file: HistoryFile?
    /// The text Ctrl-Y inserts, kept from line to line.
    private var killedText = ""
    /// Bytes read but not used yet, and where the unused part starts.
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// Creates an editor reading from `input` and drawing on `output`, loading history from `historyFile`
    /// (its last `maxHistory` lines) if there is one.
    public init(
        input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO,
        historyFile: String? = nil,
        maxHistory: Int = 1000
    ) {
        self.input = input
        self.output = output
        self.historyFile = historyFile
        self.maxHistory = max(maxHistory, 0)
        var file = historyFile.map { HistoryFile(path: $0, limit: maxHistory) }
        storedHistory = History(limit: maxHistory, entries: file?.load() ?? [])
        self.file = file
    }

    /// Whether standard input is a terminal, so that `readLine` will edit interactively.
    public static var isInteractive: Bool {
        Terminal.isTerminal(STDIN_FILENO)
    }

    /// Whether this editor's input is a terminal, so that `readLine` will edit interactively.
    public var isInteractive: Bool {
        Terminal.isTerminal(input)
    }

    /// The history, oldest entry first.
    public var history: [String] {
        storedHistory.entries
    }

    /// Adds `line` to the history, and to the history file, unless it is blank, repeats the newest entry
    /// or holds a line break. Interactive `readLine` does this itself for each line entered.
    public func addToHistory(_ line: String) {
        if storedHistory.add(line) {
            file?.append(line)
        }
    }

    /// Shows `prompt` and reads a line, with editing when the input is a terminal.
    ///
    /// `prompt` may contain ANSI escape sequences such as colours; they are not counted as width. A line
    /// entered at a terminal is added to the history. Without a terminal the prompt is not shown (so a
    /// script's output stays clean) and the next line of input is returned as it is.
    public func readLine(prompt: String) -> ReadResult {
        guard isInteractive, let rawMode = RawMode(descriptor: input) else {
            return readPlainLine()
        }
        // Every return below goes through here, so the terminal is never left in raw mode.
        defer { rawMode.restore() }
        return readEditedLine(prompt: prompt)
    }

    // MARK: - Interactive editing

    private func readEditedLine(prompt: String) -> ReadResult {
        var session = EditingSession(history: storedHistory.entries, completer: completer, killedText: killedText)
        defer { killedText = session.killedText }
        var decoder = KeyDecoder()
        draw(prompt: prompt, buffer: session.buffer)
        while true {
            let key: Key?
            // Inside an unfinished key wait only briefly: a lone ESC that nothing follows was the Escape key.
            switch nextByte(waitingAtMost: decoder.isPending ? 100 : nil) {
            case .byte(let byte):
                key = decoder.feed(byte)
            case .timedOut:
                key = decoder.flush()
            case .ended:
                write("\r\n")
                return .endOfFile
            }
            guard let key else { continue }
            switch session.handle(key) {
            case .unchanged:
                break
            case .redraw:
                draw(prompt: prompt, buffer: session.buffer)
            case .bell:
                write("\u{07}")
            case .accept(let line):
                finish(prompt: prompt, buffer: session.buffer, marker: "")
                addToHistory(line)
                return .line(line)
            case .cancel:
                // Leave the abandoned line on screen, marked, like a shell does.
                finish(prompt: prompt, buffer: session.buffer, marker: "^C")
                return .cancelled
            case .endOfFile:
                write("\r\n")
                return .endOfFile
            case .clearScreen:
                // Home the cursor, then erase the whole screen.
                write("\u{1B}[H\u{1B}[2J")
                draw(prompt: prompt, buffer: session.buffer)
            case .listCandidates(let candidates):
                let rows = CompletionText.layout(candidates, columns: Terminal.columns(of: output, input))
                write("\r\n" + rows.map { $0 + "\r\n" }.joined())
                draw(prompt: prompt, buffer: session.buffer)
            }
        }
    }

    private func draw(prompt: String, buffer: LineBuffer) {
        write(LineRenderer.render(prompt: prompt, buffer: buffer, columns: Terminal.columns(of: output, input)))
    }

    /// Redraws the line with the cursor at its end, adds `marker`, and moves to a new line, so that what
    /// the program prints next starts below the whole line.
    private func finish(prompt: String, buffer: LineBuffer, marker: String) {
        var shown = buffer
        shown.moveToEnd()
        draw(prompt: prompt, buffer: shown)
        write(marker + "\r\n")
    }

    private func write(_ text: String) {
        RawIO.writeAll(text, to: output)
    }

    // MARK: - Plain input

    /// Reads up to the next LF (dropping it and a CR before it) without touching the terminal.
    private func readPlainLine() -> ReadResult {
        var bytes: [UInt8] = []
        while true {
            switch nextByte(waitingAtMost: nil) {
            case .byte(UInt8(ascii: "\n")):
                if bytes.last == UInt8(ascii: "\r") {
                    bytes.removeLast()
                }
                return .line(String(decoding: bytes, as: UTF8.self))
            case .byte(let byte):
                bytes.append(byte)
            case .ended, .timedOut:
                // A last line without its newline is still a line.
                return bytes.isEmpty ? .endOfFile : .line(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    // MARK: - Input buffering

    private enum InputEvent {
        case byte(UInt8)
        case timedOut
        /// End of file, or an error such as a terminal hang-up (EIO).
        case ended
    }

    /// The next input byte, reading more when the buffer is empty. With `milliseconds`, gives up after that
    /// long without input.
    private func nextByte(waitingAtMost milliseconds: Int32?) -> InputEvent {
        if pendingStart == pending.count {
            if let milliseconds, !RawIO.waitForInput(on: input, milliseconds: milliseconds) {
                return .timedOut
            }
            guard refill() else { return .ended }
        }
        defer { pendingStart += 1 }
        return .byte(pending[pendingStart])
    }

    /// Reads what is available into the empty buffer. Returns `false` at end of file or on an error.
    private func refill() -> Bool {
        pending = [UInt8](repeating: 0, count: 4096)
        pendingStart = 0
        while true {
            let count = read(input, &pending, pending.count)
            if count > 0 {
                pending.removeSubrange(count...)
                return true
            }
            if count < 0, errno == EINTR {
                continue
            }
            pending.removeAll()
            return false
        }
    }
}
