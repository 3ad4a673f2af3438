import Switchboard
import SwitchboardTerminal
import SwitchboardTestSupport
import Testing

/// Tables measure text in terminal cells: a CJK character or an emoji takes two, so columns after it still line up,
/// and a cell cut to fit keeps its `…` (Foundation's padding counted UTF-16 units, and dropped it after an emoji).
@Suite struct TableCellWidthTests {
    @Test func wideCharactersKeepTheColumnsAfterThemInLine() {
        let lines = Table.alignedLines([
            ["ui.greeting", "こんにちは", "default"],
            ["ui.banner", "🎉 hi", "runtime"],
            ["app.limit", "10", "env"],
        ])
        #expect(lines == [
            "ui.greeting  こんにちは  default",
            "ui.banner    🎉 hi       runtime",
            "app.limit    10          env",
        ])
    }

    @Test func aHeaderedTableLinesUpByCells() {
        let table = Table(header: ["KEY", "VALUE", "LAYER"], rows: [["a", "日本", "default"], ["b", "abcde", "env"]])
        #expect(table.render(terminal: Terminal(fd: 1, colors: false)) == """
            KEY  VALUE  LAYER
            a    日本   default
            b    abcde  env

            """)
    }

    @Test func aLineBreakOrATabInAValueOrDescriptionKeepsTheRowWhole() throws {
        let project = TestProject(definitions: """
            namespace: ui
            preferences:
              greeting:
                type: string
                default: "line1\\nline2\\tend"
                description: |
                  Two lines
                  of description.
            """, prefix: "switchboard-cli-test")
        let list = try runSwitchboard(["list"], in: project.path, environment: ["COLUMNS": "200"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").map(String.init) == [
            "KEY          KIND        TYPE    DEFAULT            VALUE              LAYER    DESCRIPTION",
            "ui.greeting  preference  string  line1\\nline2\\tend  line1\\nline2\\tend  default  "
                + "Two lines of description.",
        ])
    }

    @Test func aShortValueIsCutAtThirtyCells() {
        #expect(Value.string(String(repeating: "日", count: 20)).shortText == String(repeating: "日", count: 14) + "…")
        #expect(Value.string(String(repeating: "a", count: 31)).shortText == String(repeating: "a", count: 29) + "…")
        #expect(Value.string(String(repeating: "a", count: 30)).shortText == String(repeating: "a", count: 30))
    }

    @Test func aCutCellKeepsItsEllipsisAndNeverHalvesAWideCharacter() {
        let table = Table(header: ["KEY", "VALUE"],
                          rows: [["k", "🎉 Welcome to the new checkout"], ["l", "日本語のテキストです"]])
        let lines = table.render(terminal: Terminal(fd: 1, colors: false), width: 15, shrinking: [1])
            .split(separator: "\n")
        #expect(lines == ["KEY  VALUE", "k    🎉 Welcom…", "l    日本語の…"])
    }
}
