import Foundation
import Locking

/// A `switchboard serve` child process listening on a free loopback port, logging to a file. Stop it with
/// ``stop()``; it is also stopped when released. Sendable: the process is only touched under a lock.
public final class ServeProcess: Sendable {
    private let process: Locked<Process>
    /// The port it listens on, read from its log.
    public let port: Int
    /// The file its standard error goes to.
    public let log: String

    /// Starts `switchboard serve --host 127.0.0.1 --port 0` with `arguments` after it, in ``testEnvironment(_:)``
    /// plus `environment`, and waits until it logs the port it listens on.
    ///
    /// - Parameter ulimit: options of `sh`'s `ulimit` to start it under, such as `-Sn 256` for a soft limit of 256
    ///   open files, as a service manager may start it; `nil`: the test process's limits.
    /// - Throws: ``ServeProcessExited`` when it exits before listening (with its log), or ``DeadlineExceeded``.
    public init(
        _ arguments: [String], environment: [String: String] = [:], log: String, ulimit: String? = nil
    ) async throws {
        self.log = log
        let process = Process()
        let serve = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        if let ulimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", switchboardExecutable.path]
                + serve
        } else {
            process.executableURL = switchboardExecutable
            process.arguments = serve
        }
        process.environment = testEnvironment(environment)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = Locked(process)
        var found: Int?
        do {
            try await waitUntil("switchboard serve listens (log: \(log))") {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: "listening on http://127.0.0.1:") {
                    found = Int(text[range.upperBound...].prefix { $0.isNumber })
                }
                return found != nil || !process.isRunning
            }
        } catch {
            process.terminate()
            throw error
        }
        guard let found else {
            throw ServeProcessExited(log: log, text: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
        port = found
    }

    /// Its process identifier.
    public var processIdentifier: Int32 { process.withLock { $0.processIdentifier } }

    /// Its log so far.
    public var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Stops it with SIGTERM, gracefully (SIGKILL when it has not exited by the deadline), and waits for it.
    public func stop() {
        process.withLock { process in
            if process.isRunning { process.terminate() }
            try? waitForExit(process)
        }
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
