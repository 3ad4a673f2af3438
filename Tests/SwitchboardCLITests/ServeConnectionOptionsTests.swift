import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard serve`'s connection settings: `--header-timeout`, `--idle-timeout`, `--max-connections`, and the
/// open-files limit it raises at start.
@Suite struct ServeConnectionOptionsTests {
    /// The soft and hard "Max open files" of a running process, from `/proc`.
    private func openFilesLimit(of pid: Int32) throws -> (soft: String, hard: String) {
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        return (String(fields[0]), String(fields[1]))
    }

    @Test func raisesTheSoftOpenFilesLimitToTheHardOneAndLogsIt() async throws {
        let project = makeProject()
        let hard = try openFilesLimit(of: ProcessInfo.processInfo.processIdentifier).hard
        try #require(hard == "unlimited" || Int(hard)! > 256, "the hard limit leaves nothing to raise")
        let server = try await ServeProcess(["--flags", project.flags, "--max-connections", "50"],
                                            log: project.path + "/serve.log", ulimit: "-Sn 256")
        defer { server.stop() }
        let limit = try openFilesLimit(of: server.processIdentifier)
        #expect(limit.soft == limit.hard)
        let line = try #require(server.logText.split(separator: "\n").first { $0.contains("listening on http://") })
        #expect(line.contains("up to 50 connections (open files: soft \(limit.soft), hard \(limit.hard)); "
            + "header timeout 10.0 seconds, idle timeout 60.0 seconds"))
    }

    @Test func keepsTheCapUnderALimitItCannotRaise() async throws {
        let project = makeProject()
        // `ulimit -n` sets both limits: nothing to raise, so the cap must fit under 256 descriptors.
        let server = try await ServeProcess(["--flags", project.flags], log: project.path + "/serve.log",
                                            ulimit: "-n 256")
        defer { server.stop() }
        let line = try #require(server.logText.split(separator: "\n").first { $0.contains("listening on http://") })
        #expect(line.contains("up to 192 connections, not 10000: the open-files limit keeps 64 descriptors for "
            + "the rest (open files: soft 256, hard 256)"))
    }

    @Test func refusesTimeoutsAndCapsThatMeanNothing() throws {
        for arguments in [["--header-timeout", "0"], ["--idle-timeout", "-1"], ["--header-timeout", "nan"],
                          ["--idle-timeout", "100000"], ["--max-connections", "0"]] {
            let result = try runSwitchboard(["serve", "--port", "0"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(arguments[0]), "\(arguments)")
        }
    }

    @Test func refusesACORSOriginWithAPath() throws {
        let result = try runSwitchboard(["serve", "--port", "0", "--cors-origin", "https://app.example.com/home"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--cors-origin: 'https://app.example.com/home' is not an origin"),
                "\(result.stderr)")
    }
}
