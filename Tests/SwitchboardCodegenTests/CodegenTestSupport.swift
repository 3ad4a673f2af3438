import Foundation
import Switchboard
import SwitchboardCodegen

/// Where the package's files are: tests read fixtures from the source tree (not a bundle) so that
/// `SWITCHBOARD_UPDATE_GOLDEN=1` can rewrite the golden files in place.
enum Paths {
    /// The package root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// This test target's fixtures.
    static let fixtures = root + "/Tests/SwitchboardCodegenTests/Fixtures"
}

/// The day the golden files are generated for: after `checkout.legacy_coupon_banner` expired (2026-01-15), before
/// every other example flag does.
let goldenToday = Day(year: 2026, month: 6, day: 1)

/// Loads the definitions of a folder under the package root with paths relative to the root, as
/// `switchboard generate --flags flags` run there would, so generated headers do not depend on the checkout's
/// location.
func loadDefinitions(_ relativeFolder: String, today: Day = goldenToday) -> LoadReport {
    let folder = Paths.root + "/" + relativeFolder
    let sources = DefinitionLoader.definitionFiles(in: folder).map { path in
        let relative = relativeFolder + "/" + path.dropFirst(folder.count + 1)
        return (path: relative, bytes: [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }
    return DefinitionLoader.load(sources: sources, today: today)
}

/// Loads definitions written inline, as the file `flags/test.yaml`.
func loadDefinitions(yaml: String, today: Day = goldenToday) -> LoadReport {
    DefinitionLoader.load(sources: [(path: "flags/test.yaml", bytes: Array(yaml.utf8))], today: today)
}

/// Generates source for inline definitions that must load without errors.
func generate(yaml: String, access: AccessorGenerator.Access = .internal, today: Day = goldenToday)
    -> GeneratedSource
{
    let report = loadDefinitions(yaml: yaml, today: today)
    precondition(!report.hasErrors, "fixture does not load: \(report.errors)")
    return AccessorGenerator(access: access, today: today).generate(report.registry)
}

/// A fresh directory under the system's temporary folder, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "switchboard-codegen-test-" + UUID().uuidString
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

    /// A file's text, or `nil` when it does not exist.
    func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }
}

/// What a finished process printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion.
func run(_ executable: URL, _ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes before waiting, so a large output cannot fill a pipe and stall the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
}

/// Runs the `switchboard` executable that SwiftPM built beside the tests.
func runSwitchboard(_ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
    try run(BuildProducts.switchboard, arguments, in: directory)
}

/// The build products folder the tests run from, found from the test binary's own path.
enum BuildProducts {
    static let folder: URL = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("switchboard").path)
        } ?? candidates[0]
    }()

    /// The `switchboard` executable.
    static var switchboard: URL { folder.appendingPathComponent("switchboard") }

    /// The folder holding `Switchboard.swiftmodule`, for compiling generated code against the real library.
    static var modules: URL? {
        [folder.appendingPathComponent("Modules"), folder].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Switchboard.swiftmodule").path)
        }
    }
}
