import Foundation
import SwitchboardTestSupport

/// A git repository in a temporary folder, with commits made under a fixed identity (CI has none of its own).
final class GitFixture: Sendable {
    /// The folder, removed with the fixture.
    let folder = TemporaryDirectory(prefix: "switchboard-review-test")

    /// `git init` in a fresh folder.
    init() throws {
        try git("init", "--quiet", "--initial-branch=main")
    }

    /// The path of `relative` in the repository.
    func path(_ relative: String) -> String { folder.file(relative) }

    /// Writes a file.
    func write(_ relative: String, _ text: String) {
        folder.write(relative, text)
    }

    /// Removes a file.
    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: path(relative))
    }

    /// Commits every file in the folder.
    func commit(_ message: String) throws {
        try git("add", "--all")
        try git("commit", "--quiet", "--allow-empty", "--no-verify", "-m", message)
    }

    /// Runs git in the repository with a fixed identity and no user or system configuration.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: folder.path,
                                    environment: GitFixture.environment)
        guard result.status == 0 else { throw GitFailure(arguments: arguments, stderr: result.stderr) }
        return result.stdout
    }

    /// What every git call of a test gets: an identity, dates, and no configuration from outside the test.
    static let environment = [
        "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "tester@example.com",
        "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
    ]
}

/// A git command that failed in a test's repository.
struct GitFailure: Error, CustomStringConvertible {
    var arguments: [String]
    var stderr: String
    var description: String { "git \(arguments.joined(separator: " ")) failed: \(stderr)" }
}
