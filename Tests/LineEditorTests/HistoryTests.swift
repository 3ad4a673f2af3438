import Foundation
import Testing

@testable import LineEditor
import SwitchboardTestSupport

@Suite("History")
struct HistoryTests {
    @Test func addSkipsBlankLinesAndRepeats() {
        var history = History(limit: 10)
        // `add` is mutating, which #expect can't call, so collect its answers first.
        let added = ["get a", "get a", "", "  \t", "set a on", "a\nb", "a\r\nb", "get a"].map { history.add($0) }
        #expect(added == [true, false, false, false, true, false, false, true])
        #expect(history.entries == ["get a", "set a on", "get a"])
    }

    @Test func oldestEntriesGoFirst() {
        var history = History(limit: 2, entries: ["1", "2", "3"])
        #expect(history.entries == ["2", "3"])
        history.add("4")
        #expect(history.entries == ["3", "4"])
    }

    @Test func zeroLimitKeepsNothing() {
        var history = History(limit: 0, entries: ["1"])
        let added = history.add("2")
        #expect(!added)
        #expect(history.entries.isEmpty)
    }
}

@Suite("History file")
struct HistoryFileTests {
    @Test func missingFileLoadsAsEmptyAndAppendCreatesItPrivate() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        var file = HistoryFile(path: path, limit: 10)
        #expect(file.load() == [])
        file.append("get a")
        file.append("set a on")
        #expect(contents(of: path) == "get a\nset a on\n")
        #expect(permissions(of: path) == 0o600)
    }

    @Test func loadSkipsEmptyLinesAndCarriageReturns() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        try writeFile("one\r\n\ntwo\nthree", to: path)
        var file = HistoryFile(path: path, limit: 10)
        #expect(file.load() == ["one", "two", "three"])
    }

    @Test func appendAfterAFileWithoutFinalNewline() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        try writeFile("one", to: path)
        var file = HistoryFile(path: path, limit: 10)
        _ = file.load()
        file.append("two")
        #expect(contents(of: path) == "one\ntwo\n")
    }

    @Test func loadTrimsAnOverlongFileOnDisk() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        try writeFile("1\n2\n3\n4\n5\n", to: path, mode: 0o644)
        var file = HistoryFile(path: path, limit: 3)
        #expect(file.load() == ["3", "4", "5"])
        #expect(contents(of: path) == "3\n4\n5\n")
        #expect(permissions(of: path) == 0o600)
    }

    @Test func appendingPastTheLimitRewritesTheNewestLines() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        var file = HistoryFile(path: path, limit: 3)
        _ = file.load()
        for line in ["1", "2", "3", "4", "5"] {
            file.append(line)
        }
        #expect(contents(of: path) == "3\n4\n5\n")
        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["history"])
    }

    @Test func trimmingKeepsLinesAnotherSessionAppended() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        var mine = HistoryFile(path: path, limit: 3)
        var theirs = HistoryFile(path: path, limit: 3)
        _ = mine.load()
        _ = theirs.load()
        mine.append("m1")
        mine.append("m2")
        theirs.append("t1")
        mine.append("m3")
        // Not knowing about t1, this session trims only on its next append, re-reading the file.
        mine.append("m4")
        #expect(contents(of: path) == "t1\nm3\nm4\n")
    }

    @Test func appendMakesAnExistingFilePrivate() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        try writeFile("old\n", to: path, mode: 0o644)
        var file = HistoryFile(path: path, limit: 10)
        _ = file.load()
        file.append("new")
        #expect(permissions(of: path) == 0o600)
    }

    @Test func editorLoadsAtInitAndSavesNewDistinctLines() throws {
        let directory = TemporaryDirectory(prefix: "LineEditorTests")
        defer { directory.remove() }
        let path = directory.file("history")
        try writeFile("a\nb\nc\n", to: path)
        let editor = LineEditor(historyFile: path, maxHistory: 3)
        #expect(editor.history == ["a", "b", "c"])
        editor.addToHistory("c")
        editor.addToHistory(" ")
        editor.addToHistory("d")
        #expect(editor.history == ["b", "c", "d"])
        #expect(contents(of: path) == "b\nc\nd\n")
        #expect(LineEditor(historyFile: path, maxHistory: 3).history == ["b", "c", "d"])
    }

    @Test func editorWithoutFileKeepsHistoryInMemory() {
        let editor = LineEditor(historyFile: nil, maxHistory: 2)
        editor.addToHistory("x")
        editor.addToHistory("y")
        editor.addToHistory("z")
        #expect(editor.history == ["y", "z"])
    }
}
