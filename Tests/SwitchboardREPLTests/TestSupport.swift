import Foundation
import Switchboard
import SwitchboardREPL

/// A project folder for one test: the fixture definitions copied to `flags/`, the runtime store in
/// `.switchboard/` beside them, removed when the test is done with it.
final class Project {
    let path: String
    var flags: String { path + "/flags" }
    var storePath: String { path + "/.switchboard/overrides.json" }

    init() {
        path = NSTemporaryDirectory() + "switchboard-repl-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try! FileManager.default.copyItem(atPath: Fixtures.path("flags"), toPath: flags)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file under the project (creating folders).
    func write(_ relative: String, _ text: String) {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Reads a file under the project.
    func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    /// A board on the project that does not poll: tests drive changes.
    func board() throws -> Board {
        try Board(directory: flags,
                  options: Board.Options(environment: [:], pollInterval: nil, watchDefinitions: false))
    }

    /// A session on a fresh board, with colour off and no questions asked.
    func session(actor: String = "tester") throws -> Session {
        Session(board: try board(), actor: actor)
    }
}

enum Fixtures {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    static func text(_ relative: String) -> String {
        try! String(contentsOfFile: path(relative), encoding: .utf8)
    }
}

/// The output of a finished `switchboard` run.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `switchboard` executable in `directory` with `input` on standard input (a pipe, so a REPL
/// runs it as a script), and waits for it.
@discardableResult
func runSwitchboard(
    _ arguments: [String], in directory: String, input: String = "", environment: [String: String] = [:]
) throws -> Run {
    let process = Process()
    process.executableURL = switchboardExecutable
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = testEnvironment(environment)
    let output = Pipe(), errors = Pipe(), inputPipe = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = inputPipe
    try process.run()
    inputPipe.fileHandleForWriting.write(Data(input.utf8))
    try inputPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe.
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
               stderr: String(decoding: stderr, as: UTF8.self))
}

/// The environment of a test run: the process's own without anything that would change Switchboard's answers
/// (no SWITCHBOARD_ variables, no NO_COLOR unless given), plus `extra`.
func testEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("SWITCHBOARD_") && $0.key != "NO_COLOR"
    }
    environment["SWITCHBOARD_ACTOR"] = "tester"
    for (key, value) in extra { environment[key] = value }
    return environment
}

/// The `switchboard` binary beside the test bundle (SwiftPM builds it for the tests, which depend on it).
let switchboardExecutable: URL = {
    let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
    for candidate in [
        Bundle.main.bundleURL.appendingPathComponent("switchboard"),
        bundleDirectory.appendingPathComponent("switchboard"),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("switchboard"),
    ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug/switchboard").standardizedFileURL
}()

/// `text` with every ISO 8601 time replaced by `<time>`, so transcripts compare across runs.
func withoutTimes(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "<time>")
}
