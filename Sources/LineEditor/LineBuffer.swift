/// The text being edited and the cursor in it, with the editing operations the keys map to.
///
/// Text is kept as `Character`s (grapheme clusters) so that the cursor never lands inside a multi-byte
/// or combined character: left, right and backspace move over what the user sees as one character.
/// The cursor is an index into `characters`, from 0 (before the first) to `characters.count` (after
/// the last).
struct LineBuffer: Equatable, Sendable {
    /// The characters of the line.
    private(set) var characters: [Character]
    /// Where the cursor is: the number of characters before it.
    private(set) var cursor: Int

    /// Creates a buffer holding `text` with the cursor at `cursor`, or at the end when `nil`.
    init(_ text: String = "", cursor: Int? = nil) {
        characters = Array(text)
        self.cursor = min(max(cursor ?? characters.count, 0), characters.count)
    }

    /// The line as a string.
    var text: String {
        String(characters)
    }

    /// Whether the line is empty.
    var isEmpty: Bool {
        characters.isEmpty
    }

    /// The text between `range`'s bounds, clamped to the line.
    func text(in range: Range<Int>) -> String {
        String(characters[clamped(range)])
    }

    /// Inserts `text` at the cursor and moves the cursor after it.
    mutating func insert(_ text: String) {
        replace(cursor..<cursor, with: text)
    }

    /// Replaces the characters in `range` (clamped to the line) with `text`, leaving the cursor after it.
    mutating func replace(_ range: Range<Int>, with text: String) {
        let range = clamped(range)
        // Rebuild through String so that a combining mark or joiner merges with the character before it,
        // as it will on screen; counting the left part the same way keeps the cursor on a boundary.
        let left = String(characters[..<range.lowerBound]) + text
        let whole = left + String(characters[range.upperBound...])
        characters = Array(whole)
        cursor = min(left.count, characters.count)
    }

    /// Replaces the whole line, with the cursor at the end.
    mutating func setText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Moves the cursor one character left, if it can.
    mutating func moveLeft() {
        cursor = max(cursor - 1, 0)
    }

    /// Moves the cursor one character right, if it can.
    mutating func moveRight() {
        cursor = min(cursor + 1, characters.count)
    }

    /// Moves the cursor before the first character.
    mutating func moveToStart() {
        cursor = 0
    }

    /// Moves the cursor after the last character.
    mutating func moveToEnd() {
        cursor = characters.count
    }

    /// Moves the cursor to the start of the word before it (words are runs of letters and digits).
    mutating func moveWordLeft() {
        cursor = wordStart(before: cursor, isWordCharacter: Self.isAlphanumeric)
    }

    /// Moves the cursor to the end of the word after it (words are runs of letters and digits).
    mutating func moveWordRight() {
        var index = cursor
        while index < characters.count, !Self.isAlphanumeric(characters[index]) {
            index += 1
        }
        while index < characters.count, Self.isAlphanumeric(characters[index]) {
            index += 1
        }
        cursor = index
    }

    /// Deletes the character before the cursor (Backspace).
    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor (Delete, Ctrl-D).
    mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Deletes from the cursor to the end of the line and returns what was deleted (Ctrl-K).
    mutating func killToEnd() -> String {
        remove(cursor..<characters.count)
    }

    /// Deletes from the start of the line to the cursor and returns what was deleted (Ctrl-U).
    mutating func killToStart() -> String {
        remove(0..<cursor)
    }

    /// Deletes the whitespace-separated word before the cursor, with the blanks after it, and returns
    /// what was deleted (Ctrl-W). Whitespace, not punctuation, bounds the word, as in a Unix shell, so that
    /// `checkout.new-flow` goes in one press.
    mutating func killWordBackward() -> String {
        remove(wordStart(before: cursor) { !$0.isWhitespace }..<cursor)
    }

    private mutating func remove(_ range: Range<Int>) -> String {
        let removed = String(characters[range])
        characters.removeSubrange(range)
        cursor = range.lowerBound
        return removed
    }

    /// The start of the word ending at or before `index`: skips non-word characters, then word ones.
    private func wordStart(before index: Int, isWordCharacter: (Character) -> Bool) -> Int {
        var index = index
        while index > 0, !isWordCharacter(characters[index - 1]) {
            index -= 1
        }
        while index > 0, isWordCharacter(characters[index - 1]) {
            index -= 1
        }
        return index
    }

    private func clamped(_ range: Range<Int>) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), characters.count)
        let upper = min(max(range.upperBound, lower), characters.count)
        return lower..<upper
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
