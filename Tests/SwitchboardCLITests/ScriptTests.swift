import Foundation
import Switchboard
import Testing
import SwitchboardTestSupport

/// `switchboard repl` run as a real process with a script on standard input.
@Suite(.serialized)
struct ScriptTests {
    let project = replProject()

    /// The transcript of a script that runs every command and every kind of bad input, compared with the one
    /// kept beside it (times and the project's path normalised).
    @Test func theTourTranscript() throws {
        let run = try runSwitchboard(["repl"], in: project.path, input: try fixtures.text("scripts/tour.txt"))
        let normalise = { (text: String) in withoutTimes(text).replacing(project.path, with: "<project>") }
        #expect(normalise(run.stdout) == (try fixtures.text("scripts/tour.out")))
        #expect(normalise(run.stderr) == (try fixtures.text("scripts/tour.err")))
        // Commands failed, so the script fails; `quit` ended it before its last line.
        #expect(run.status == 1)
        #expect(!run.stdout.contains("\u{1B}"), "no colour in a script")
        #expect(!run.stdout.contains("switchboard>"), "no prompt in a script")
    }

    @Test func aScriptWhoseCommandsAllWorkExitsZero() throws {
        let run = try runSwitchboard(["repl"], in: project.path, input: "set app.theme dark\nget app.theme\n")
        #expect(run.status == 0)
        #expect(run.stdout == "app.theme = dark (runtime)\napp.theme = dark (runtime)\n")
        #expect(run.stderr == "")
    }

    @Test func noColourEvenForATerminalWhenNoColorIsSet() throws {
        // A script never colours; NO_COLOR is honoured at a terminal too (see InteractiveTests).
        let run = try runSwitchboard(["repl"], in: project.path, input: "get nope\n", environment: ["NO_COLOR": "1"])
        #expect(run.stderr == "line 1: error: unknown key 'nope'\n  hint: list the keys to see which are defined\n")
    }

    @Test func overridesSurviveARestartOfTheREPL() throws {
        let first = try runSwitchboard(["repl"], in: project.path, input: "set app.theme dark\ntoggle app.new_flow\n")
        #expect(first.status == 0)
        let second = try runSwitchboard(["repl"], in: project.path, input: "get app.theme\nget app.new_flow\nlog\n",
                                        environment: ["SWITCHBOARD_ACTOR": "someone-else"])
        #expect(second.status == 0)
        let lines = withoutTimes(second.stdout).split(separator: "\n")
        #expect(lines.prefix(2) == ["app.theme = dark (runtime)", "app.new_flow = true (runtime)"])
        #expect(lines.contains("<time>  tester (unverified)  app.theme     (none) → dark"))
        // The plain CLI reads the same store.
        #expect(try runSwitchboard(["get", "app.theme"], in: project.path).stdout == "dark\n")
    }

    @Test func theStateOptionChoosesTheStore() throws {
        let store = project.path + "/elsewhere/state.json"
        let run = try runSwitchboard(["repl", "--state", store, "--flags", "flags"], in: project.path,
                                     input: "set app.theme light\n")
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(project.read(".switchboard/overrides.json") == nil)
    }

    @Test func invalidDefinitionsAtStartExitOne() throws {
        project.write("flags/app.yaml", "flags:\n  broken:\n    type: bool\n    default: maybe\n")
        let run = try runSwitchboard(["repl"], in: project.path, input: "list\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("flags/app.yaml:4:14: error:"))
        #expect(run.stdout == "")
    }

    @Test func jsonIsAUsageError() throws {
        let run = try runSwitchboard(["repl", "--json"], in: project.path)
        #expect(run.status == 2)
        #expect(run.stderr.contains("repl has no --json output"))
    }

    /// A REPL kept running while another process changes the store and the definitions are broken by an edit.
    @Test func changesFromAnotherProcessAndABrokenEditWhileRunning() throws {
        let repl = try RunningREPL(in: project.path)
        defer { repl.stop() }
        repl.send("get app.theme")
        try #require(repl.waitForOutput("app.theme = system (default)\n"))

        let set = try runSwitchboard(["set", "app.theme", "dark", "--actor", "bob"], in: project.path)
        #expect(set.status == 0)
        repl.send("get app.upload.max_mb")
        // The news comes before the answer to the next command.
        try #require(repl.waitForOutput("app.upload.max_mb = 25 (default)\n"))
        #expect(repl.output.hasSuffix("""
            * app.theme changed: system → dark (runtime, set by bob)
            app.upload.max_mb = 25 (default)

            """))

        let good = try #require(project.read("flags/app.yaml"))
        project.write("flags/app.yaml", good.replacing("max: 500", with: "max: many"))
        repl.send("reload")
        repl.send("get app.upload.max_mb")
        try #require(repl.waitForErrors("still using the last good definitions (12 keys)\n"))
        // The REPL noticed the edit by itself before running `reload`, and said so once.
        #expect(repl.errors.components(separatedBy: "the definitions changed and have 1 error").count == 2)
        #expect(repl.errors.contains("line 3: flags/app.yaml:"), "diagnostics name file:line:column")
        try #require(repl.waitForOutput("app.upload.max_mb = 25 (default)\n", count: 2))

        project.write("flags/app.yaml", good)
        repl.send("reload")
        try #require(repl.waitForOutput("reloaded 12 definitions from 2 files\n"))
        #expect(try repl.finish() == 1, "the failed reload fails the script")
    }
}

/// A `switchboard repl` process fed one line at a time through a pipe, whose output is collected as it comes.
final class RunningREPL: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var outputData = Data()
    private var errorData = Data()

    init(in directory: String, arguments: [String] = []) throws {
        process.executableURL = switchboardExecutable
        process.arguments = ["repl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = testEnvironment([:])
        let output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.outputData.append(data) }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.errorData.append(data) }
        }
        try process.run()
    }

    var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
    var errors: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until standard output holds `text` `count` times; `false` when the deadline passes first.
    func waitForOutput(_ text: String, count: Int = 1) -> Bool {
        wait { $0.output.components(separatedBy: text).count > count }
    }

    /// Waits until standard error holds `text`; `false` when the deadline passes first.
    func waitForErrors(_ text: String) -> Bool {
        wait { $0.errors.contains(text) }
    }

    private func wait(until condition: (RunningREPL) -> Bool) -> Bool {
        (try? waitUntilBlocking("the REPL's output") { condition(self) }) != nil
    }

    /// Ends the input and returns the exit status; throws when the REPL does not exit before the deadline.
    func finish() throws -> Int32 {
        try? input.fileHandleForWriting.close()
        try waitForExit(process)
        return process.terminationStatus
    }

    /// Ends the process if a failed expectation left it running.
    func stop() {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
    }
}
