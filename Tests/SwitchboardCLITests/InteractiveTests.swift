import Foundation
import Glibc
import Testing
import SwitchboardTestSupport

/// `switchboard repl` at a terminal: a real process on a pseudo-terminal, typed at key by key.
@Suite(.serialized)
struct InteractiveTests {
    let project = replProject()

    @Test func tabCompletionHistoryConfirmationAndControlKeys() throws {
        let history = project.path + "/.switchboard/repl_history"
        do {
            let terminal = try REPLTerminal(in: project.path)
            defer { terminal.stop() }
            try terminal.expect("Type help for the commands")
            try terminal.expectPrompt()

            // Tab completes a key from its prefix, and Enter runs the line.
            terminal.type("get app.th\t")
            try terminal.expect("get app.theme ")
            terminal.type("\r")
            try terminal.expect("app.theme = system")

            // The up arrow recalls the line; Enter runs it again.
            try terminal.expectPrompt()
            terminal.type("\u{1B}[A")
            try terminal.expect("get app.theme")
            terminal.type("\r")
            try terminal.expect("app.theme = system")

            // Values complete too.
            try terminal.expectPrompt()
            terminal.type("set app.theme d\t\r")
            try terminal.expect("app.theme = dark")

            // Ctrl-C drops the line and the session goes on.
            try terminal.expectPrompt()
            terminal.type("set app.theme ligh\u{03}")
            try terminal.expect("^C")

            // reset --all asks first; no keeps everything, yes removes it.
            try terminal.expectPrompt()
            terminal.type("reset --all\r")
            try terminal.expect("Remove the runtime override of app.theme? [y/N] ")
            terminal.type("n\r")
            try terminal.expect("nothing was removed")
            try terminal.expectPrompt()
            terminal.type("reset --all\r")
            try terminal.expect("Remove the runtime override of app.theme? [y/N] ")
            terminal.type("y\r")
            try terminal.expect("removed 1 runtime override")

            // A mistake is answered, and the session goes on.
            try terminal.expectPrompt()
            terminal.type("lsit\r")
            try terminal.expect("did you mean 'list'?")

            // Ctrl-D on an empty line leaves, successfully even after a failed command.
            try terminal.expectPrompt()
            terminal.type("\u{04}")
            #expect(terminal.waitForExit() == 0)
            #expect(terminal.transcript.contains("\u{1B}[1m"), "colour at a terminal")
        }
        // History is kept across sessions beside the store, without the answers to questions.
        let saved = try #require(project.read(".switchboard/repl_history"))
        // (The completed key brought its trailing space along, as in a shell.)
        #expect(saved == "get app.theme \nset app.theme dark\nreset --all\nlsit\n")
        #expect(FileManager.default.fileExists(atPath: history))

        let terminal = try REPLTerminal(in: project.path, environment: ["NO_COLOR": "1"])
        defer { terminal.stop() }
        try terminal.expectPrompt()
        terminal.type("\u{1B}[A\u{1B}[A")
        try terminal.expect("reset --all")
        terminal.type("\u{15}quit\r")
        #expect(terminal.waitForExit() == 0)
        #expect(!terminal.transcript.contains("\u{1B}[1m"), "no colour with NO_COLOR")
    }

    @Test func changesMadeElsewhereAppearAtTheNextPrompt() throws {
        let terminal = try REPLTerminal(in: project.path)
        defer { terminal.stop() }
        try terminal.expectPrompt()
        try runSwitchboard(["set", "app.new_flow", "true", "--actor", "carol"], in: project.path)
        // Enter on an empty line just draws the next prompt, which brings the news first.
        terminal.type("\r")
        try terminal.expect(
            "* \u{1B}[1mapp.new_flow\u{1B}[0m changed: false → \u{1B}[33mtrue\u{1B}[0m (runtime, set by carol)")
        terminal.type("quit\r")
        #expect(terminal.waitForExit() == 0)
    }
}

/// A `switchboard repl` process on the slave side of a pseudo-terminal; the test types into the master side
/// and reads what the REPL draws.
final class REPLTerminal {
    private let process = Process()
    private let master: Int32
    private(set) var output: [UInt8] = []
    /// How far `expect` has read: each expectation looks only after the previous one.
    private var seen = 0

    init(in directory: String, environment: [String: String] = [:]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.master = master
        process.executableURL = switchboardExecutable
        process.arguments = ["repl"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = testEnvironment(["TERM": "xterm"].merging(environment) { $1 })
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Only the child keeps the slave open, so reads fail once it has exited.
        close(slave)
    }

    var transcript: String { String(decoding: output, as: UTF8.self) }

    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until `text` appears after what was already matched, or throws after ``generousDeadline``.
    func expect(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let wanted = Array(text.utf8)
        var budget = WaitBudget(generousDeadline)
        while true {
            if let range = output[seen...].firstRange(of: wanted) {
                seen = range.upperBound
                return
            }
            guard !budget.isSpent(), read(waitingAtMost: 0.1) else {
                Issue.record("never saw \(text.debugDescription) in \(transcript.debugDescription)",
                             sourceLocation: sourceLocation)
                throw CancellationError()
            }
        }
    }

    /// Waits for a fresh prompt: a line break, then the prompt (the editor redraws a finished line, prompt
    /// included, before it moves on).
    func expectPrompt(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expect("\n", sourceLocation: sourceLocation)
        try expect("switchboard>", sourceLocation: sourceLocation)
    }

    private func read(waitingAtMost seconds: Double) -> Bool {
        var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, Int32(seconds * 1000) + 1) > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(master, &chunk, chunk.count)
        guard count > 0 else { return false }
        output += chunk[..<count]
        return true
    }

    /// Waits for the process to end, draining the terminal so it never blocks writing; returns its status.
    func waitForExit() -> Int32 {
        var budget = WaitBudget(generousDeadline)
        while process.isRunning, !budget.isSpent() {
            _ = read(waitingAtMost: 0.05)
        }
        guard !process.isRunning else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends the process if a failed expectation left it running, and closes the terminal.
    func stop() {
        if process.isRunning {
            process.terminate()
            try? SwitchboardTestSupport.waitForExit(process)
        }
        close(master)
    }
}
