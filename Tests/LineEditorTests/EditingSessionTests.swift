import Testing

@testable import LineEditor

/// Feeds `input` to `session` as a terminal would send it and returns the outcome of each key.
@discardableResult
func type(_ input: String, into session: inout EditingSession) -> [EditOutcome] {
    var decoder = KeyDecoder()
    return decoder.decode(Array(input.utf8)).map { session.handle($0) }
}

/// What the up arrow sends.
let upArrow = "\u{1B}[A"
/// What the down arrow sends.
let downArrow = "\u{1B}[B"
/// What the left arrow sends.
let leftArrow = "\u{1B}[D"

@Suite("Editing")
struct EditingTests {
    @Test func typingAndEnter() {
        var session = EditingSession(history: [], completer: nil)
        let outcomes = type("get x\r", into: &session)
        #expect(outcomes.last == .accept("get x"))
        #expect(outcomes.dropLast().allSatisfy { $0 == .redraw })
    }

    @Test func editingKeys() {
        var session = EditingSession(history: [], completer: nil)
        // Type, go home, add a prefix, go to the end, delete one.
        type("flag\u{01}get \u{05}\u{7F}", into: &session)
        #expect(session.buffer.text == "get fla")
        // Delete under the cursor after moving left twice.
        type("\(leftArrow)\(leftArrow)\u{1B}[3~", into: &session)
        #expect(session.buffer.text == "get fa")
        type("\u{1B}[H\u{1B}[3~", into: &session)
        #expect(session.buffer.text == "et fa")
    }

    @Test func killAndYank() {
        var session = EditingSession(history: [], completer: nil)
        type("set a on\u{17}", into: &session)
        #expect(session.buffer.text == "set a ")
        #expect(session.killedText == "on")
        type("\u{01}\u{0B}", into: &session)
        #expect(session.buffer.text == "")
        #expect(session.killedText == "set a ")
        // Ctrl-K with nothing to kill keeps the earlier text for Ctrl-Y.
        type("\u{0B}\u{19}\u{19}", into: &session)
        #expect(session.buffer.text == "set a set a ")
        type("\(leftArrow)\u{15}", into: &session)
        #expect(session.buffer.text == " ")
        #expect(session.killedText == "set a set a")
    }

    @Test func controlCCancelsAndControlDEndsOnlyAnEmptyLine() {
        var session = EditingSession(history: [], completer: nil)
        #expect(type("ab\u{03}", into: &session).last == .cancel)

        session = EditingSession(history: [], completer: nil)
        type("ab\u{01}\u{04}", into: &session)
        #expect(session.buffer.text == "b")
        #expect(type("\u{04}\u{04}", into: &session) == [.redraw, .endOfFile])
    }

    @Test func clearScreenAndIgnoredKeys() {
        var session = EditingSession(history: [], completer: nil)
        #expect(type("\u{0C}", into: &session) == [.clearScreen])
        // Insert decodes to no key at all; Ctrl-T is a key the editor ignores.
        #expect(type("\u{1B}[2~\u{14}", into: &session) == [.unchanged])
    }
}

@Suite("History browsing")
struct HistoryBrowsingTests {
    @Test func upRecallsNewestFirstAndDownReturnsToTheTypedLine() {
        var session = EditingSession(history: ["one", "two"], completer: nil)
        type("thr", into: &session)
        type(upArrow, into: &session)
        #expect(session.buffer.text == "two")
        #expect(session.buffer.cursor == 3)
        type(upArrow, into: &session)
        #expect(session.buffer.text == "one")
        #expect(type(upArrow, into: &session) == [.bell])
        #expect(session.buffer.text == "one")
        type(downArrow + downArrow, into: &session)
        #expect(session.buffer.text == "thr")
        #expect(type(downArrow, into: &session) == [.bell])
    }

    @Test func editsToRecalledEntriesAreKeptWhileBrowsing() {
        var session = EditingSession(history: ["one", "two"], completer: nil)
        type("\(upArrow)!\(upArrow)\(downArrow)", into: &session)
        #expect(session.buffer.text == "two!")
        #expect(type("\r", into: &session) == [.accept("two!")])

        // A new session starts from the history as it was.
        session = EditingSession(history: ["one", "two"], completer: nil)
        type(upArrow, into: &session)
        #expect(session.buffer.text == "two")
    }

    @Test func controlPAndControlNBrowseToo() {
        var session = EditingSession(history: ["one", "two"], completer: nil)
        type("\u{10}\u{10}\u{0E}", into: &session)
        #expect(session.buffer.text == "two")
    }

    @Test func emptyHistoryRingsTheBell() {
        var session = EditingSession(history: [], completer: nil)
        #expect(type(upArrow, into: &session) == [.bell])
    }
}
