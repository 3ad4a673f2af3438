import Foundation
import Glibc
import LineEditor
import Testing
import SwitchboardTestSupport

/// A pseudo-terminal: the editor runs on the slave side, the test types into and reads the master side.
private final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    /// Everything the editor has drawn so far.
    private(set) var output: [UInt8] = []

    init(columns: UInt16 = 80) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.master = master
        self.slave = slave
    }

    /// Sends keys as a user typing them would.
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        #expect(write(master, bytes, bytes.count) == bytes.count)
    }

    /// Reads what the editor draws until `text` appears after byte `offset` of the output, and returns the
    /// offset just past it, or `nil` if it didn't appear within ``generousDeadline`` (counted by a ``WaitBudget``).
    func waitFor(_ text: String, after offset: Int) -> Int? {
        let wanted = Array(text.utf8)
        var budget = WaitBudget(generousDeadline)
        while true {
            if let range = output[min(offset, output.count)...].firstRange(of: wanted) {
                return range.upperBound
            }
            guard !budget.isSpent() else { return nil }
            var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(master, &chunk, chunk.count)
            guard count > 0 else { return nil }
            output += chunk[..<count]
        }
    }

    /// Waits for a new prompt: a line ending, then `prompt`. Returns the offset past it.
    ///
    /// Looking for the prompt alone isn't enough: the editor redraws the finished line, prompt included,
    /// before it moves to a new line.
    func waitForPrompt(_ prompt: String, after offset: Int) -> Int? {
        waitFor("\n", after: offset).flatMap { waitFor(prompt, after: $0) }
    }

    /// The output after byte `offset`, as text, for failure messages.
    func text(after offset: Int) -> String {
        String(decoding: output[min(offset, output.count)...], as: UTF8.self)
    }
}

/// Results handed from the editor's thread to the test.
private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [LineEditor.ReadResult] = []
    /// Signalled when the editor's thread is done.
    let finished = DispatchSemaphore(value: 0)

    func append(_ result: LineEditor.ReadResult) {
        lock.withLock { results.append(result) }
    }

    var values: [LineEditor.ReadResult] {
        lock.withLock { results }
    }
}

@Suite("Terminal")
struct TerminalTests {
    @Test func completionHistoryAndControlKeysThroughAPseudoTerminal() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let historyPath = directory.file("history")
        let terminal = try PseudoTerminal()
        let slave = terminal.slave
        let results = ResultList()
        let prompt = "\u{1B}[1;34msb>\u{1B}[0m "

        // The editor blocks reading its terminal, so it gets a thread of its own rather than a task.
        let thread = Thread {
            let editor = LineEditor(input: slave, output: slave, historyFile: historyPath)
            editor.completer = { line, cursor in
                .matching(["status", "set", "setting"], line: line, cursor: cursor)
            }
            for _ in 0..<10 {
                let result = editor.readLine(prompt: prompt)
                results.append(result)
                if result == .endOfFile {
                    break
                }
            }
            results.finished.signal()
        }
        thread.start()
        var editorDone = false
        defer {
            // On failure, hanging up makes the editor's read fail, so its thread ends before the slave closes.
            close(terminal.master)
            if !editorDone {
                try? waitUntilBlocking("the editor's thread to end") {
                    results.finished.wait(timeout: .now()) == .success
                }
            }
            close(slave)
        }

        // A prefix and Tab complete to the only match.
        var seen = try #require(terminal.waitFor("sb>", after: 0), "no prompt: \(terminal.text(after: 0))")
        terminal.type("sta\t")
        seen = try #require(terminal.waitFor("status", after: seen), "no completion: \(terminal.text(after: seen))")
        terminal.type("\r")

        // Up recalls the line just entered.
        seen = try #require(terminal.waitForPrompt("sb>", after: seen), "no 2nd prompt: \(terminal.text(after: seen))")
        terminal.type("\u{1B}[A")
        seen = try #require(terminal.waitFor("status", after: seen), "no recall: \(terminal.text(after: seen))")
        terminal.type("\r")

        // Tab inserts the common prefix, a second Tab lists the candidates, Ctrl-C drops the line.
        seen = try #require(terminal.waitForPrompt("sb>", after: seen), "no 3rd prompt: \(terminal.text(after: seen))")
        terminal.type("se\t")
        seen = try #require(terminal.waitFor("set", after: seen), "no prefix: \(terminal.text(after: seen))")
        terminal.type("\t")
        let listing = "set      setting"
        seen = try #require(terminal.waitFor(listing, after: seen), "no listing: \(terminal.text(after: seen))")
        seen = try #require(terminal.waitFor("sb>", after: seen), "no redraw: \(terminal.text(after: seen))")
        terminal.type("\u{03}")
        seen = try #require(terminal.waitFor("^C", after: seen), "no ^C: \(terminal.text(after: seen))")

        // Ctrl-D on the empty line ends input.
        seen = try #require(terminal.waitForPrompt("sb>", after: seen), "no 4th prompt: \(terminal.text(after: seen))")
        terminal.type("\u{04}")
        editorDone = (try? waitUntilBlocking("the editor's thread to end") {
            results.finished.wait(timeout: .now()) == .success
        }) != nil
        #expect(editorDone)

        #expect(results.values == [.line("status"), .line("status"), .cancelled, .endOfFile])
        // The repeated line is saved once.
        #expect(contents(of: historyPath) == "status\n")
        #expect(permissions(of: historyPath) == 0o600)
        // The terminal is back in the mode it started in.
        var mode = termios()
        #expect(tcgetattr(slave, &mode) == 0)
        #expect(mode.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == tcflag_t(ICANON | ECHO | ISIG))
        #expect(mode.c_iflag & tcflag_t(ICRNL) != 0)
    }

    @Test func pseudoTerminalIsInteractiveAndAPipeIsNot() throws {
        let terminal = try PseudoTerminal()
        defer {
            close(terminal.master)
            close(terminal.slave)
        }
        #expect(LineEditor(input: terminal.slave, output: terminal.slave).isInteractive)
        var descriptors: [Int32] = [-1, -1]
        #expect(pipe(&descriptors) == 0)
        defer { descriptors.forEach { close($0) } }
        #expect(!LineEditor(input: descriptors[0]).isInteractive)
    }

    @Test func pipedInputIsReadAsPlainLines() throws {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        #expect(pipe(&input) == 0)
        #expect(pipe(&output) == 0)
        defer { (input + output).forEach { close($0) } }
        let text = Array("get a\r\n\u{1B}[A\tx\n\nlast".utf8)
        #expect(write(input[1], text, text.count) == text.count)
        close(input[1])
        input[1] = -1

        let editor = LineEditor(input: input[0], output: output[1])
        editor.completer = { _, _ in Issue.record("no completion without a terminal"); return .none }
        #expect(editor.readLine(prompt: "> ") == .line("get a"))
        // No key handling: escape sequences and tabs come through as they are.
        #expect(editor.readLine(prompt: "> ") == .line("\u{1B}[A\tx"))
        #expect(editor.readLine(prompt: "> ") == .line(""))
        #expect(editor.readLine(prompt: "> ") == .line("last"))
        #expect(editor.readLine(prompt: "> ") == .endOfFile)
        #expect(editor.readLine(prompt: "> ") == .endOfFile)
        // Nothing was drawn, and plain lines are not history.
        var status = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&status, 1, 0) == 0)
        #expect(editor.history.isEmpty)
    }
}
