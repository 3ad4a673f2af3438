/// What the terminal side should do after a key was handled.
enum EditOutcome: Equatable, Sendable {
    /// Nothing changed on screen.
    case unchanged
    /// The line or the cursor changed: redraw.
    case redraw
    /// Nothing to do for this key (no completion, no older history): ring the bell.
    case bell
    /// Enter: the line is done.
    case accept(String)
    /// Ctrl-C: the line is dropped.
    case cancel
    /// Ctrl-D on an empty line: no more input.
    case endOfFile
    /// Ctrl-L: clear the screen, then redraw.
    case clearScreen
    /// A second Tab: list these candidates below the line, then redraw.
    case listCandidates([String])
}

/// The editing of one line, without any terminal: takes keys, changes the buffer, browses history and
/// completes, and says what the screen needs.
///
/// One session lives for one `readLine` call. History is a snapshot taken at its start; edits made to a
/// recalled entry are kept while browsing (so going up and back down returns to them, and to the line
/// being typed), but never change the history itself.
struct EditingSession {
    /// The line being edited.
    private(set) var buffer = LineBuffer()
    /// The text Ctrl-Y inserts: the last text Ctrl-K, Ctrl-U or Ctrl-W deleted. The editor carries it from
    /// one line to the next.
    private(set) var killedText: String

    private let history: [String]
    /// Which entry is shown: `history.count` is the line being typed, lower numbers are older entries.
    private var historyIndex: Int
    /// Edited text of entries browsed away from, by index, including the line being typed.
    private var edits: [Int: String] = [:]
    private let completer: LineEditor.Completer?
    /// Whether the key before this one was Tab: a second Tab in a row lists the candidates.
    private var lastKeyWasTab = false

    /// Starts editing an empty line, with `history` (oldest first) to browse and `completer` for Tab.
    init(history: [String], completer: LineEditor.Completer?, killedText: String = "") {
        self.history = history
        self.historyIndex = history.count
        self.completer = completer
        self.killedText = killedText
    }

    /// Applies `key` and says what the screen needs.
    mutating func handle(_ key: Key) -> EditOutcome {
        let repeatedTab = lastKeyWasTab
        lastKeyWasTab = key == .tab
        switch key {
        case .character(let character):
            buffer.insert(String(character))
        case .enter:
            return .accept(buffer.text)
        case .tab:
            return complete(listing: repeatedTab)
        case .backspace:
            buffer.deleteBackward()
        case .delete:
            buffer.deleteForward()
        case .left, .control("b"):
            buffer.moveLeft()
        case .right, .control("f"):
            buffer.moveRight()
        case .home, .control("a"):
            buffer.moveToStart()
        case .end, .control("e"):
            buffer.moveToEnd()
        case .wordLeft, .meta("b"):
            buffer.moveWordLeft()
        case .wordRight, .meta("f"):
            buffer.moveWordRight()
        case .up, .control("p"):
            return recall(historyIndex - 1)
        case .down, .control("n"):
            return recall(historyIndex + 1)
        case .control("k"):
            keep(buffer.killToEnd())
        case .control("u"):
            keep(buffer.killToStart())
        case .control("w"):
            keep(buffer.killWordBackward())
        case .control("y"):
            buffer.insert(killedText)
        case .control("c"):
            return .cancel
        case .control("d"):
            // As in a shell: end of input on an empty line, delete under the cursor otherwise.
            if buffer.isEmpty {
                return .endOfFile
            }
            buffer.deleteForward()
        case .control("l"):
            return .clearScreen
        default:
            return .unchanged
        }
        return .redraw
    }

    private mutating func keep(_ killed: String) {
        // Deleting nothing (Ctrl-K at the end) shouldn't forget what was deleted before.
        if !killed.isEmpty {
            killedText = killed
        }
    }

    /// Shows history entry `index` (or the line being typed, at `history.count`), keeping the edits made
    /// to the one shown now.
    private mutating func recall(_ index: Int) -> EditOutcome {
        guard (0...history.count).contains(index) else { return .bell }
        edits[historyIndex] = buffer.text
        historyIndex = index
        buffer.setText(edits[index] ?? (index < history.count ? history[index] : ""))
        return .redraw
    }

    /// Tab: asks the completer; inserts a unique candidate or the candidates' longest common prefix; on a
    /// second Tab in a row, when that adds nothing, lists the candidates.
    private mutating func complete(listing: Bool) -> EditOutcome {
        guard let completer else { return .unchanged }
        let completion = completer(buffer.text, buffer.cursor)
        var seen = Set<String>()
        let candidates = completion.candidates.filter { seen.insert($0).inserted }
        guard !candidates.isEmpty else { return .bell }
        let typed = buffer.text(in: completion.range)
        if candidates.count == 1 {
            guard candidates[0] != typed else { return .unchanged }
            buffer.replace(completion.range, with: candidates[0])
            return .redraw
        }
        let prefix = CompletionText.commonPrefix(of: candidates)
        // Only a longer prefix is progress: with loose matching the prefix may be shorter than what was
        // typed, and replacing would delete the user's text.
        if prefix.count > typed.count {
            buffer.replace(completion.range, with: prefix)
            return .redraw
        }
        return listing ? .listCandidates(candidates) : .bell
    }
}
