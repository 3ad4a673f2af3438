import Testing

@testable import LineEditor

@Suite("Rendering")
struct RenderingTests {
    @Test func promptWidthIgnoresColourSequences() {
        #expect(DisplayWidth.ofPrompt("sb> ") == 4)
        #expect(DisplayWidth.ofPrompt("\u{1B}[1;32msb\u{1B}[0m> ") == 4)
        #expect(DisplayWidth.ofPrompt("\u{1B}[38;5;208m⚑\u{1B}[m ") == 2)
    }

    @Test func wideAndCombiningCharacters() {
        #expect(DisplayWidth.of("日本" as String) == 4)
        #expect(DisplayWidth.of("😀" as Character) == 2)
        #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
        #expect(DisplayWidth.of("ab" as String) == 2)
    }

    @Test func rendersPromptLineAndCursor() {
        let buffer = LineBuffer("hello", cursor: 2)
        let output = LineRenderer.render(prompt: "\u{1B}[32m>\u{1B}[0m ", buffer: buffer, columns: 80)
        #expect(output == "\r\u{1B}[32m>\u{1B}[0m hello\u{1B}[K\r\u{1B}[4C")
    }

    @Test func cursorInColumnZeroNeedsNoMove() {
        #expect(LineRenderer.render(prompt: "", buffer: LineBuffer("ab", cursor: 0), columns: 80) == "\rab\u{1B}[K\r")
    }

    @Test func wideCharactersMoveTheCursorTwoColumns() {
        let output = LineRenderer.render(prompt: "> ", buffer: LineBuffer("日本x", cursor: 2), columns: 80)
        #expect(output.hasSuffix("\r\u{1B}[6C"))
    }

    @Test func controlCharactersAreNotSentRaw() {
        let output = LineRenderer.render(prompt: "", buffer: LineBuffer("a\tb\u{1B}[2J"), columns: 80)
        #expect(output == "\ra\u{FFFD}b\u{FFFD}[2J\u{1B}[K\r\u{1B}[7C")
    }

    @Test func longLinesScrollToKeepTheCursorVisible() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        // Cursor at the end: the head scrolls off and the cursor sits in the last column.
        let atEnd = LineRenderer.render(prompt: "> ", buffer: LineBuffer(text), columns: 10)
        #expect(atEnd == "\r> tuvwxyz\u{1B}[K\r\u{1B}[9C")
        // Cursor at the start: the tail is cut at the terminal's width.
        let atStart = LineRenderer.render(prompt: "> ", buffer: LineBuffer(text, cursor: 0), columns: 10)
        #expect(atStart == "\r> abcdefgh\u{1B}[K\r\u{1B}[2C")
    }
}
