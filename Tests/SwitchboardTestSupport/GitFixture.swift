import Foundation

/// A git repository in a temporary folder, with commits made under a fixed identity (CI has none of its own), for
/// the tests of `switchboard diff`.
public final class GitFixture: Sendable {
    /// The folder, removed with the fixture.
    public let folder = TemporaryDirectory(prefix: "switchboard-review-test")

    /// `git init` in a fresh folder.
    public init() throws {
        try git("init", "--quiet", "--initial-branch=main")
    }

    /// The path of `relative` in the repository.
    public func path(_ relative: String) -> String { folder.file(relative) }

    /// Writes a file.
    public func write(_ relative: String, _ text: String) {
        folder.write(relative, text)
    }

    /// Removes a file.
    public func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: path(relative))
    }

    /// Commits every file in the folder.
    public func commit(_ message: String) throws {
        try git("add", "--all")
        try git("commit", "--quiet", "--allow-empty", "--no-verify", "-m", message)
    }

    /// Runs git in the repository with a fixed identity and no user or system configuration.
    @discardableResult
    public func git(_ arguments: String...) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: folder.path,
                                    environment: GitFixture.environment)
        guard result.status == 0 else { throw GitFailure(arguments: arguments, stderr: result.stderr) }
        return result.stdout
    }

    /// What every git call of a test gets: an identity, dates, and no configuration from outside the test.
    public static let environment = [
        "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "tester@example.com",
        "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
    ]
}

/// A git command that failed in a test's repository.
public struct GitFailure: Error, CustomStringConvertible {
    /// The arguments given to git.
    public var arguments: [String]
    /// What git printed on standard error.
    public var stderr: String
    /// The command and git's message.
    public var description: String { "git \(arguments.joined(separator: " ")) failed: \(stderr)" }
}
