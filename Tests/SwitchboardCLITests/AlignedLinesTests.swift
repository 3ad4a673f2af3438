import SwitchboardTerminal
import Testing

/// `Table.alignedLines`, the rows of `stale`'s groups: columns padded to the widest cell, the last ragged, and no
/// line ending in spaces.
@Suite struct AlignedLinesTests {
    @Test func columnsLineUpAndNoLineEndsInSpaces() {
        let lines = Table.alignedLines([
            ["flags/app.yaml:9", "app.new_flow", "serves false"],
            ["flags/checkout.yaml:17", "checkout.button_color", ""],
            ["flags/a.yaml:1", "a.b"],
        ])
        #expect(lines == [
            "flags/app.yaml:9        app.new_flow           serves false",
            "flags/checkout.yaml:17  checkout.button_color",
            "flags/a.yaml:1          a.b",
        ])
        #expect(Table.alignedLines([]) == [])
    }
}
