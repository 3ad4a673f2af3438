import Foundation

/// A `switchboard serve` child process listening on a free loopback port, logging to a file. Stop it with
/// ``stop()``; it is also stopped when released.
public final class ServeProcess: @unchecked Sendable {
    /// The child process.
    public let process = Process()
    /// The port it listens on, read from its log.
    public let port: Int
    /// The file its standard error goes to.
    public let log: String

    /// Starts `switchboard serve --host 127.0.0.1 --port 0` with `arguments` after it, in ``testEnvironment(_:)``
    /// plus `environment`, and waits until it logs the port it listens on.
    ///
    /// - Throws: when it exits before listening (its log says why), or does not listen within the deadline.
    public init(_ arguments: [String], environment: [String: String] = [:], log: String) async throws {
        self.log = log
        process.executableURL = switchboardExecutable
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        process.environment = testEnvironment(environment)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let process = self.process
        var found: Int?
        try await waitUntil("switchboard serve listens (log: \(log))") {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            return found != nil || !process.isRunning
        }
        guard let found else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ServeProcessExited(log: log, text: text)
        }
        port = found
    }

    /// Its log so far.
    public var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Stops it with SIGTERM, gracefully, and waits for it to exit.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// `switchboard serve` exited before it listened.
public struct ServeProcessExited: Error, CustomStringConvertible {
    /// Where its log is.
    public var log: String
    /// What it logged.
    public var text: String
    /// The log, to read in the test's failure.
    public var description: String { "switchboard serve exited before listening; \(log):\n\(text)" }
}
