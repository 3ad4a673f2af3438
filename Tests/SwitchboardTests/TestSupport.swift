import Foundation
import Switchboard

/// A fresh directory under the system's temporary folder, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "switchboard-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file (creating folders) and returns its path.
    @discardableResult
    func write(_ relative: String, _ text: String) -> String {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }
}

enum Fixtures {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func bytes(_ relative: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: root.appendingPathComponent(relative)))
    }
}

/// Definitions used by the layer and store tests.
let sampleDefinitions = """
    namespace: app
    flags:
      new_flow:
        type: bool
        default: false
      color:
        type: string
        variants: { control: blue, treatment: green }
        default: control
      express_pay:
        type: bool
        default: false
        renamed_from: [app.quick_pay]
    preferences:
      upload.max_mb:
        type: int
        default: 25
        min: 1
        max: 500
      theme:
        type: string
        values: [system, light, dark]
        default: system
      ratio:
        type: double
        default: 0.5
      stress.a:
        type: int
        default: 0
      stress.b:
        type: int
        default: 0
    """

/// A project folder with `flags/app.yaml` and a board on it that does not poll (tests drive changes).
func makeProject(
    definitions: String = sampleDefinitions, environment: [String: String] = [:], environmentName: String? = nil,
    poll: Duration? = nil
) -> (TemporaryDirectory, String) {
    let directory = TemporaryDirectory()
    directory.write("flags/app.yaml", definitions)
    return (directory, directory.path + "/flags")
}

func openBoard(
    _ flags: String, environment: [String: String] = [:], environmentName: String? = nil, poll: Duration? = nil
) throws(LoadError) -> Board {
    try Board(directory: flags, options: Board.Options(
        environmentName: environmentName, environment: environment, pollInterval: poll))
}

/// Runs the built `switchboard` executable and returns its exit status, standard output and standard error.
@discardableResult
func runSwitchboard(_ arguments: [String], environment: [String: String] = [:], input: String? = nil)
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let process = Process()
    process.executableURL = switchboardExecutable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// The `switchboard` binary beside the test bundle (SwiftPM builds it for the tests, which depend on it).
let switchboardExecutable: URL = {
    let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
    for candidate in [
        Bundle.main.bundleURL.appendingPathComponent("switchboard"),
        bundleDirectory.appendingPathComponent("switchboard"),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("switchboard"),
    ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/switchboard")
        .standardizedFileURL
}()
