import Testing

@testable import LineEditor

@Suite("Line buffer")
struct LineBufferTests {
    @Test func insertsAtTheCursor() {
        var buffer = LineBuffer("held")
        buffer.moveLeft()
        buffer.moveLeft()
        buffer.insert("l")
        #expect(buffer.text == "helld")
        #expect(buffer.cursor == 3)
    }

    @Test func cursorStaysInBounds() {
        var buffer = LineBuffer("ab")
        buffer.moveRight()
        #expect(buffer.cursor == 2)
        buffer.moveToStart()
        buffer.moveLeft()
        #expect(buffer.cursor == 0)
        #expect(LineBuffer("ab", cursor: 9).cursor == 2)
        #expect(LineBuffer("ab", cursor: -1).cursor == 0)
    }

    @Test func multiByteCharactersAreOneStep() {
        var buffer = LineBuffer("a日😀é")
        #expect(buffer.characters.count == 4)
        buffer.deleteBackward()
        #expect(buffer.text == "a日😀")
        buffer.moveLeft()
        buffer.deleteBackward()
        #expect(buffer.text == "a😀")
        #expect(buffer.cursor == 1)
    }

    @Test func combiningMarkMergesWithTheCharacterBefore() {
        var buffer = LineBuffer("cafe")
        buffer.insert("\u{301}")
        #expect(buffer.characters.count == 4)
        #expect(buffer.cursor == 4)
        buffer.deleteBackward()
        #expect(buffer.text == "caf")
    }

    @Test func deleteForwardAndBackwardAtTheEdges() {
        var buffer = LineBuffer("ab")
        buffer.deleteForward()
        #expect(buffer.text == "ab")
        buffer.moveToStart()
        buffer.deleteBackward()
        #expect(buffer.text == "ab")
        buffer.deleteForward()
        #expect(buffer.text == "b")
        #expect(buffer.cursor == 0)
    }

    @Test func killToEndAndToStart() {
        var buffer = LineBuffer("set flag on", cursor: 4)
        #expect(buffer.killToEnd() == "flag on")
        #expect(buffer.text == "set ")
        buffer.insert("x")
        buffer.moveLeft()
        #expect(buffer.killToStart() == "set ")
        #expect(buffer.text == "x")
        #expect(buffer.cursor == 0)
    }

    @Test func killWordBackwardUsesWhitespace() {
        var buffer = LineBuffer("get checkout.new-flow  ")
        #expect(buffer.killWordBackward() == "checkout.new-flow  ")
        #expect(buffer.text == "get ")
        #expect(buffer.killWordBackward() == "get ")
        #expect(buffer.killWordBackward() == "")
    }

    @Test func wordMovesStopAtPunctuation() {
        var buffer = LineBuffer("get checkout.new-flow")
        buffer.moveWordLeft()
        #expect(buffer.cursor == 17)
        buffer.moveWordLeft()
        buffer.moveWordLeft()
        #expect(buffer.cursor == 4)
        buffer.moveWordRight()
        #expect(buffer.cursor == 12)
        buffer.moveToStart()
        buffer.moveWordRight()
        #expect(buffer.cursor == 3)
    }

    @Test func replaceClampsItsRange() {
        var buffer = LineBuffer("get che")
        buffer.replace(4..<99, with: "checkout")
        #expect(buffer.text == "get checkout")
        #expect(buffer.cursor == 12)
        buffer.replace(-3..<3, with: "GET")
        #expect(buffer.text == "GET checkout")
        #expect(buffer.cursor == 3)
        #expect(buffer.text(in: 4..<50) == "checkout")
    }
}
