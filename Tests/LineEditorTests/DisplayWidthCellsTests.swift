@testable import LineEditor
import Testing

/// What tables need of `DisplayWidth`: characters that draw nothing take no cell, padding never cuts, cutting never
/// halves a wide character, and control characters are written out rather than sent to the terminal.
struct DisplayWidthCellsTests {
    @Test func charactersThatDrawNothingTakeNoCell() {
        #expect(DisplayWidth.of("ab\u{200B}cd" as String) == 4)  // zero-width space
        #expect(DisplayWidth.of("a\u{2060}b" as String) == 2)  // word joiner
        #expect(DisplayWidth.of("\u{FEFF}ab" as String) == 2)  // byte order mark
        #expect(DisplayWidth.of("\u{301}" as Character) == 0)  // a mark with nothing to draw on
        #expect(DisplayWidth.of("soft\u{AD}hyphen" as String) == 11)  // a soft hyphen is drawn
    }

    @Test func paddingFillsToTheCellsAndNeverCuts() {
        #expect(DisplayWidth.padded("日本", to: 6) == "日本  ")
        #expect(DisplayWidth.padded("abcdef", to: 3) == "abcdef")
    }

    @Test func cuttingEndsInAnEllipsisWithinTheCells() {
        #expect(DisplayWidth.fitted("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.fitted("日本語", to: 4) == "日…")
        #expect(DisplayWidth.fitted("日本", to: 4) == "日本")
    }

    @Test func controlCharactersAreWrittenOut() {
        #expect(DisplayWidth.oneLine("a\nb\tc\rd\u{1B}[31m") == "a\\nb\\tc\\rd\\u001b[31m")
        #expect(DisplayWidth.oneLine("plain 日本") == "plain 日本")
    }
}
