extension LineEditor {
    /// What a completer offers for the text at the cursor: candidates for one stretch of the line.
    ///
    /// Offsets count `Character`s (what the user sees as one character), like the cursor passed to the
    /// completer. Each candidate is the whole text that would replace `range`, so a completer may match
    /// loosely (case-insensitively, say) and still replace what was typed.
    public struct Completion: Sendable, Equatable {
        /// The possible replacements for `range`, in the order they are listed.
        public var candidates: [String]
        /// The characters of the line that a candidate replaces, usually the word before the cursor.
        public var range: Range<Int>

        /// Creates a completion offering `candidates` in place of the characters in `range`.
        public init(candidates: [String], replacing range: Range<Int>) {
            self.candidates = candidates
            self.range = range
        }

        /// No candidates: Tab rings the bell.
        public static let none = Completion(candidates: [], replacing: 0..<0)

        /// Completes the whitespace-delimited word that ends at `cursor` from `words`: the candidates are
        /// the words that start with it, in the order given.
        ///
        /// A convenience for the common case of a fixed vocabulary (commands, flag names). Append a space
        /// to the words themselves if a unique match should be followed by one.
        public static func matching(_ words: some Sequence<String>, line: String, cursor: Int) -> Completion {
            let characters = Array(line)
            let end = min(max(cursor, 0), characters.count)
            var start = end
            while start > 0, !characters[start - 1].isWhitespace {
                start -= 1
            }
            let prefix = String(characters[start..<end])
            return Completion(candidates: words.filter { $0.hasPrefix(prefix) }, replacing: start..<end)
        }
    }
}

/// The pure parts of Tab completion: the common prefix and the listing layout.
enum CompletionText {
    /// The longest prefix, in whole `Character`s, that every string starts with; empty for no strings.
    static func commonPrefix(of strings: [String]) -> String {
        guard var prefix = strings.first.map(Array.init) else { return "" }
        for string in strings.dropFirst() {
            let shared = zip(prefix, string).prefix { $0 == $1 }.count
            prefix.removeSubrange(shared...)
        }
        return String(prefix)
    }

    /// Lays out `candidates` in columns that fit `columns` cells, filled top to bottom then left to right
    /// like a shell's listing, and returns the rows without trailing blanks.
    static func layout(_ candidates: [String], columns: Int) -> [String] {
        guard !candidates.isEmpty else { return [] }
        let widths = candidates.map(DisplayWidth.of)
        let cellWidth = (widths.max() ?? 0) + 2
        let perRow = max(1, columns / cellWidth)
        let rowCount = (candidates.count + perRow - 1) / perRow
        return (0..<rowCount).map { row in
            var line = ""
            for index in stride(from: row, to: candidates.count, by: rowCount) {
                let isLastInRow = index + rowCount >= candidates.count
                line += candidates[index]
                if !isLastInRow {
                    line += String(repeating: " ", count: cellWidth - widths[index])
                }
            }
            return line
        }
    }
}
