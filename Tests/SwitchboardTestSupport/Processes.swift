public import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable {
    /// The exit status (or the signal that ended it).
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: String
    /// Everything written to standard error.
    public var stderr: String
}

/// The environment a test's child process gets: the test process's own without anything that changes
/// Switchboard's answers (no `SWITCHBOARD_…` variable of the shell the tests run from, no `NO_COLOR`, no
/// `COLUMNS`), with `SWITCHBOARD_ACTOR=tester`, then `extra` on top. Only what a test passes reaches Switchboard.
public func testEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("SWITCHBOARD_") && $0.key != "NO_COLOR" && $0.key != "COLUMNS"
    }
    environment["SWITCHBOARD_ACTOR"] = "tester"
    for (key, value) in extra { environment[key] = value }
    return environment
}

/// Runs a program to completion with ``testEnvironment(_:)`` plus `environment`, `input` on standard input
/// (a pipe, closed after it), in `directory` when given. A program still running after `timeout` is killed and
/// ``DeadlineExceeded`` thrown, so a hung child fails the test instead of hanging the run.
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: String? = nil, input: String? = nil,
    environment: [String: String] = [:], timeout: Duration = .seconds(600),
    file: String = #fileID, line: Int = #line
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.environment = testEnvironment(environment)
    let out = Pipe(), err = Pipe(), inputPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inputPipe
    try process.run()
    let timedOut = Locked(false)
    let watchdog = DispatchWorkItem { [pid = process.processIdentifier] in
        timedOut.withLock { $0 = true }
        kill(pid, SIGKILL)
    }
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
    defer { watchdog.cancel() }
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    if timedOut.withLock({ $0 }) {
        throw DeadlineExceeded(what: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) to finish",
                               timeout: timeout, file: file, line: line)
    }
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
}

/// Starts a program with ``testEnvironment(_:)`` plus `environment`, its input and output thrown away, and returns
/// at once: for tests that run processes side by side or kill them midway. Wait for it with
/// ``waitForExit(_:timeout:file:line:)``.
public func startProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = testEnvironment(environment)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
}

/// Runs the `switchboard` executable SwiftPM built beside the tests, with colour off unless `environment`
/// says otherwise.
@discardableResult
public func runSwitchboard(
    _ arguments: [String], in directory: String? = nil, input: String? = nil, environment: [String: String] = [:],
    file: String = #fileID, line: Int = #line
) throws -> ProcessResult {
    try runProcess(BuildProducts.switchboard, arguments, in: directory, input: input,
                   environment: ["NO_COLOR": "1"].merging(environment) { $1 }, file: file, line: line)
}

/// Runs blocking work (a child process to completion, say) on a thread of its own, and awaits it. An async test
/// that blocks instead holds one of the few threads every task shares (one per core), and stalls the requests and
/// waits of the tests running beside it. Record issues after it returns: the thread has no test to report to.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result(catching: body)) }
    }
}

/// Starts the `switchboard` executable SwiftPM built beside the tests with ``testEnvironment(_:)`` plus
/// `environment`, its output thrown away, and returns without waiting: for tests that kill a process mid-write or
/// run several at once. The caller waits for it (``waitForExit(_:timeout:file:line:)``).
public func startSwitchboard(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
    try startProcess(BuildProducts.switchboard, arguments, environment: environment)
}

/// The `switchboard` executable beside the tests (every test target depends on it, so SwiftPM builds it).
public var switchboardExecutable: URL { BuildProducts.switchboard }

/// The build products folder the tests run from, found from the test binary's own path.
public enum BuildProducts {
    /// The folder holding the test bundle and the `switchboard` executable.
    public static let folder: URL = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("switchboard").path)
        } ?? candidates[0]
    }()

    /// The `switchboard` executable.
    public static var switchboard: URL { folder.appendingPathComponent("switchboard") }

    /// The folder holding `Switchboard.swiftmodule`, for compiling generated code against the real library.
    public static var modules: URL? {
        [folder.appendingPathComponent("Modules"), folder].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Switchboard.swiftmodule").path)
        }
    }
}

/// Runs each piece of a task that prefers it on a thread of its own, outside the shared pool.
public final class DedicatedThreads: TaskExecutor {
    /// The one instance; it keeps no state.
    public static let shared = DedicatedThreads()

    /// Runs the job on a new thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}

/// Runs long blocking work (child processes killed in a loop, say) on a thread of its own, in the calling test's
/// task, so that `#expect` inside it still reports to the test. Blocking on the shared pool instead holds one of its
/// few threads (one per core) for the whole test, and two such tests at once stall every other test's waits.
public func offThePool<T>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(DedicatedThreads.shared) { try body() }
}
