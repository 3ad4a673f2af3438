import Testing

@testable import LineEditor

@Suite("Key decoding")
struct KeyDecoderTests {
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes)
    }

    private func keys(_ text: String) -> [Key] {
        keys(Array(text.utf8))
    }

    @Test func printableASCII() {
        #expect(keys("a Z~") == [.character("a"), .character(" "), .character("Z"), .character("~")])
    }

    @Test func controlKeys() {
        #expect(keys([0x01, 0x03, 0x04, 0x05, 0x0B, 0x0C, 0x15, 0x17]) == [
            .control("a"), .control("c"), .control("d"), .control("e"),
            .control("k"), .control("l"), .control("u"), .control("w"),
        ])
    }

    @Test func enterTabAndBackspace() {
        #expect(keys([0x0D, 0x0A, 0x09, 0x7F, 0x08]) == [.enter, .enter, .tab, .backspace, .backspace])
    }

    @Test func arrowsInBothModes() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    }

    @Test(arguments: ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~"])
    func home(_ sequence: String) {
        #expect(keys(sequence) == [.home])
    }

    @Test(arguments: ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~"])
    func end(_ sequence: String) {
        #expect(keys(sequence) == [.end])
    }

    @Test func deleteKey() {
        #expect(keys("\u{1B}[3~") == [.delete])
    }

    @Test func modifiedArrowsMoveByWord() {
        #expect(keys("\u{1B}[1;5C\u{1B}[1;5D\u{1B}[1;3C\u{1B}[1;2C") == [.wordRight, .wordLeft, .wordRight, .right])
    }

    @Test func altKeys() {
        #expect(keys("\u{1B}b\u{1B}f") == [.meta("b"), .meta("f")])
    }

    @Test func unknownSequencesAreDroppedWhole() {
        // Page Up, F5, a focus report: none may leak "5~" or "15~" into the line.
        #expect(keys("\u{1B}[5~\u{1B}[15~\u{1B}[Ix") == [.character("x")])
        #expect(keys("\u{1B}OPx") == [.character("x")])
    }

    @Test func multiByteCharacters() {
        #expect(keys("é日😀") == [.character("é"), .character("日"), .character("😀")])
    }

    @Test func keysSplitAcrossReadsStillDecode() {
        var decoder = KeyDecoder()
        var decoded: [Key] = []
        for byte in Array("\u{1B}[1;5C😀\u{1B}[3~".utf8) {
            if let key = decoder.feed(byte) {
                decoded.append(key)
            }
        }
        #expect(decoded == [.wordRight, .character("😀"), .delete])
        #expect(!decoder.isPending)
    }

    @Test func malformedUTF8IsDroppedWithoutEatingTheNextKey() {
        // A truncated two-byte character, an overlong encoding, a stray continuation byte, a surrogate.
        #expect(keys([0xC3, 0x41]) == [.character("A")])
        #expect(keys([0xE0, 0x80, 0x80, 0x42]) == [.character("B")])
        #expect(keys([0x80, 0x43]) == [.character("C")])
        #expect(keys([0xED, 0xA0, 0x80, 0x44]) == [.character("D")])
        #expect(keys([0xC3, 0x1B, 0x5B, 0x41]) == [.up])
    }

    @Test func loneEscapeIsReportedOnFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(0x1B) == nil)
        #expect(decoder.isPending)
        #expect(decoder.flush() == .escape)
        #expect(!decoder.isPending)
        #expect(decoder.feed(UInt8(ascii: "a")) == .character("a"))
    }

    @Test func flushDropsAnUnfinishedSequence() {
        var decoder = KeyDecoder()
        _ = decoder.decode(Array("\u{1B}[1;".utf8))
        #expect(decoder.flush() == nil)
        #expect(decoder.decode(Array("A".utf8)) == [.character("A")])
    }

    @Test func doubleEscapeThenSequence() {
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test func overlongParameterListIsDropped() {
        let garbage = "\u{1B}[" + String(repeating: "1;", count: 20) + "Ax"
        #expect(keys(garbage).last == .character("x"))
        #expect(!keys(garbage).contains(.up))
    }
}
