import Foundation
import SwitchboardTestSupport
import Testing

/// A value or description with a terminal control sequence (anyone who may write an override, through the admin
/// API or the console, or a definition) reaches the operator's terminal written out, in every line that shows it
/// among other text: `set`'s and `reset`'s answers, `explain` (header, layers, verdict), the REPL's `get`.
@Suite struct ControlCharactersInOutputTests {
    static let definitions = """
        flags:
          banner:
            description: "red \\e[31mtext"
            type: string
            default: plain
          notes:
            description: |
              first line
              second line
            type: string
            default: x
        """
    static let hostile = "evil\u{1B}[2J\u{1B}]0;pwned\u{07}"

    @Test func setExplainAndTheREPLWriteThemOut() throws {
        let project = makeProject(definitions: Self.definitions)
        let set = try runSwitchboard(["set", "--flags", project.flags, "banner", Self.hostile])
        #expect(set.status == 0)
        #expect(set.stdout == "banner = evil\\u001b[2J\\u001b]0;pwned\\u0007 (runtime)\n")
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "banner"])
        #expect(!explain.stdout.contains("\u{1B}"), "\(explain.stdout)")
        #expect(explain.stdout.hasPrefix("banner (flag, string) — red \\u001b[31mtext\n"))
        #expect(explain.stdout.contains("value: evil\\u001b[2J\\u001b]0;pwned\\u0007 from the runtime layer"))
        let repl = try runSwitchboard(["repl", "--flags", project.flags], input: "get banner\n")
        #expect(!repl.stdout.contains("\u{1B}"), "\(repl.stdout)")
        #expect(repl.stdout.contains("banner = evil\\u001b[2J"))
        // `get` prints the value alone, as data for a script: as it is.
        #expect(try runSwitchboard(["get", "--flags", project.flags, "banner"]).stdout == Self.hostile + "\n")
    }

    @Test func aDescriptionOverSeveralLinesIsOneLine() throws {
        let project = makeProject(definitions: Self.definitions)
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "notes"])
        #expect(explain.stdout.hasPrefix("notes (flag, string) — first line second line\n"), "\(explain.stdout)")
        let list = try runSwitchboard(["list", "--flags", project.flags, "notes"])
        #expect(list.stdout.contains("first line second line"), "\(list.stdout)")
    }
}
