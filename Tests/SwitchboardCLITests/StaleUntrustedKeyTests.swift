import Foundation
import SwitchboardTestSupport
import Testing

/// `stale --server` lists the keys clients asked for, and any client that reaches OFREP chooses them: one that is
/// not a well-formed key is shown as a JSON string, so no escape sequence reaches the operator's terminal, no line
/// break forges a report line, and no `|` or backtick breaks the Markdown table.
struct StaleUntrustedKeyTests {
    @Test func keysThatAreNoKeysAreQuoted() async throws {
        let project = try StaleCommandTests.project()
        let (server, token) = try await StaleCommandTests.serve(project)
        defer { server.stop() }
        // ESC [2J (clear the screen), a line break and a forged line; a `|` and a backtick; a right-to-left override
        // (U+202E) and an 8-bit escape introducer (U+009B).
        try await StaleCommandTests.evaluate(["%1B%5B2J%0Afake%20line", "a%7Cb%60c", "x%E2%80%AEy%C2%9Bz"], on: server)
        let (url, path) = ("http://127.0.0.1:\(server.port)", project.path)

        let text = try await onOwnThread {
            try runSwitchboard(["stale", "--server", url, "--token-file", token], in: path)
        }
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("\u{1B}"))
        #expect(text.stdout.contains(#"  "\u001b[2J\nfake line"  1 lookup"#), "\(text.stdout)")
        #expect(!text.stdout.contains("\nfake line"))
        // Padded to the widest key of the group.
        #expect(text.stdout.contains(#"  "x\u202ey\u009bz"       1 lookup"#), "\(text.stdout)")
        #expect(!text.stdout.contains("\u{202E}") && !text.stdout.contains("\u{9B}"))

        let markdown = try await onOwnThread {
            try runSwitchboard(["stale", "--server", url, "--token-file", token, "--markdown"], in: path)
        }
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.stdout.contains(#"| `"\u001b[2J\nfake line"` |  | 1 lookup |"#), "\(markdown.stdout)")
        #expect(markdown.stdout.contains(#"| `` "a\|b`c" `` |  | 1 lookup |"#), "\(markdown.stdout)")
    }
}
