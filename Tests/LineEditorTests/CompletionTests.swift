import Testing

@testable import LineEditor

@Suite("Completion")
struct CompletionTests {
    static let commands = ["get", "set", "setting", "settings", "status"]

    let completer: LineEditor.Completer = { line, cursor in
        .matching(commands, line: line, cursor: cursor)
    }

    @Test func uniqueCandidateIsInserted() {
        var session = EditingSession(history: [], completer: completer)
        #expect(type("g\t", into: &session).last == .redraw)
        #expect(session.buffer.text == "get")
    }

    @Test func commonPrefixIsInsertedThenSecondTabLists() {
        var session = EditingSession(history: [], completer: completer)
        type("se\t", into: &session)
        #expect(session.buffer.text == "set")
        #expect(type("\t", into: &session) == [.listCandidates(["set", "setting", "settings"])])
        #expect(session.buffer.text == "set")
    }

    @Test func ambiguousWithoutProgressRingsThenLists() {
        var session = EditingSession(history: [], completer: completer)
        #expect(type("s\t", into: &session).last == .bell)
        #expect(type("\t", into: &session) == [.listCandidates(["set", "setting", "settings", "status"])])
        // Any other key in between starts over.
        #expect(type("\(leftArrow)\t", into: &session).last == .bell)
    }

    @Test func completesTheWordAtTheCursorOnly() {
        var session = EditingSession(history: [], completer: completer)
        type("x st y\(leftArrow)\(leftArrow)\t", into: &session)
        #expect(session.buffer.text == "x status y")
        #expect(session.buffer.cursor == 8)
    }

    @Test func noCandidatesRingsTheBell() {
        var session = EditingSession(history: [], completer: completer)
        #expect(type("zz\t", into: &session).last == .bell)
        #expect(type("\t", into: &session) == [.bell])
    }

    @Test func tabWithoutCompleterDoesNothing() {
        var session = EditingSession(history: [], completer: nil)
        #expect(type("a\t", into: &session).last == .unchanged)
        #expect(session.buffer.text == "a")
    }

    @Test func looseMatchesNeverShortenWhatWasTyped() {
        // A case-insensitive completer whose candidates share a prefix shorter than the input.
        var session = EditingSession(history: [], completer: { _, cursor in
            LineEditor.Completion(candidates: ["Checkout", "checkoutV2"], replacing: 0..<cursor)
        })
        type("checko\t", into: &session)
        #expect(session.buffer.text == "checko")
    }

    @Test func duplicateCandidatesCountOnce() {
        var session = EditingSession(history: [], completer: { _, cursor in
            LineEditor.Completion(candidates: ["status", "status"], replacing: 0..<cursor)
        })
        type("st\t", into: &session)
        #expect(session.buffer.text == "status")
    }

    @Test func commonPrefix() {
        #expect(CompletionText.commonPrefix(of: []) == "")
        #expect(CompletionText.commonPrefix(of: ["alpha"]) == "alpha")
        #expect(CompletionText.commonPrefix(of: ["setting", "settings", "set"]) == "set")
        #expect(CompletionText.commonPrefix(of: ["abc", "xyz"]) == "")
        // Whole characters: "é" composed and "e" + combining accent compare equal as Characters.
        #expect(CompletionText.commonPrefix(of: ["caf\u{E9}s", "cafe\u{301}x"]) == "caf\u{E9}")
    }

    @Test func layoutFillsColumnsTopToBottom() {
        let rows = CompletionText.layout(["a", "bb", "ccc", "d", "e"], columns: 12)
        // Cells are 5 wide (longest + 2), so two fit in 12 columns: three rows.
        #expect(rows == ["a    d", "bb   e", "ccc"])
        #expect(CompletionText.layout(["one", "two"], columns: 3) == ["one", "two"])
        #expect(CompletionText.layout([], columns: 80) == [])
    }

    @Test func matchingTakesTheWordBeforeTheCursor() {
        let completion = LineEditor.Completion.matching(Self.commands, line: "get se", cursor: 6)
        #expect(completion == LineEditor.Completion(candidates: ["set", "setting", "settings"], replacing: 4..<6))
        #expect(LineEditor.Completion.matching(["a"], line: "", cursor: 3).range == 0..<0)
    }
}
