import SwitchboardTerminal
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

    @Test func aCutCellKeepsItsEllipsisAndNeverHalvesAWideCharacter() {
        let table = Table(header: ["KEY", "VALUE"], rows: [["k", "🎉 Welcome to the new checkout"], ["l", "日本語のテキストです"]])
        let lines = table.render(terminal: Terminal(fd: 1, colors: false), width: 15, shrinking: [1]).split(separator: "\n")
        #expect(lines == ["KEY  VALUE", "k    🎉 Welcom…", "l    日本語の…"])
    }
}
