/// Removes one entry of a block mapping from a YAML text, line by line, leaving every other line as it was: the
/// entry's key line, the lines indented below it, and the comment lines directly above it at its indentation.
/// A blank line that would double up is dropped; a parent map left with no entry is removed, or written `{}`.
struct YAMLEntryRemoval {
    /// What becomes of the parent map's key line when its last entry goes.
    enum EmptiedParent {
        /// The line goes (`flags:` with no flag left).
        case remove
        /// The map is written empty (`overrides: {}`), so the file keeps its shape.
        case writeEmpty
    }

    /// The text without the entry whose key starts at the 1-based `line` and `column`, or `nil` when the entry is
    /// not in block style (a flow mapping `{ … }` on one line with others), which this removal does not edit.
    static func remove(from text: String, line: Int, column: Int, emptiedParent: EmptiedParent) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The line break that ends the file is kept apart, so the last line is never taken for a blank one.
        let endsWithBreak = lines.last == ""
        if endsWithBreak { lines.removeLast() }
        func joined() -> String { lines.joined(separator: "\n") + (endsWithBreak ? "\n" : "") }
        let keyIndex = line - 1
        let indent = column - 1
        guard lines.indices.contains(keyIndex), lines[keyIndex].utf8.count > indent,
              lines[keyIndex].utf8.prefix(indent).allSatisfy({ $0 == UInt8(ascii: " ") }),
              lines[keyIndex].utf8.dropFirst(indent).first != UInt8(ascii: " ")
        else { return nil }
        // The block: down to the first line of content at the key's indentation or less, less the blank and
        // comment lines just above that line (they belong to what follows).
        var end = keyIndex + 1
        while end < lines.count, !isContent(lines[end]) || indentation(lines[end]) > indent { end += 1 }
        while end - 1 > keyIndex, isBlank(lines[end - 1]) || isComment(lines[end - 1]) && indentation(lines[end - 1]) <= indent {
            end -= 1
        }
        var start = keyIndex
        while start > 0, isComment(lines[start - 1]), indentation(lines[start - 1]) == indent { start -= 1 }
        let before = start > 0 ? lines[start - 1] : nil
        if end < lines.count, isBlank(lines[end]), before.map({ isBlank($0) || isContent($0) && indentation($0) < indent }) ?? true {
            end += 1
        } else if end == lines.count, let before, isBlank(before) {
            start -= 1
        }
        lines.removeSubrange(start..<end)
        // The parent map's key line, and whether any entry is left under it.
        guard indent > 0, let parent = (0..<start).last(where: { isContent(lines[$0]) && indentation(lines[$0]) < indent })
        else { return joined() }
        let parentIndent = indentation(lines[parent])
        var next = parent + 1
        while next < lines.count, !isContent(lines[next]) || indentation(lines[next]) > parentIndent {
            if isContent(lines[next]) { return joined() }
            next += 1
        }
        switch emptiedParent {
        case .remove:
            lines.remove(at: parent)
            // One blank line between what was before and after the map, none at either end of the file.
            if parent < lines.count, isBlank(lines[parent]), parent == 0 || isBlank(lines[parent - 1]) {
                lines.remove(at: parent)
            } else if parent == lines.count, parent > 0, isBlank(lines[parent - 1]) {
                lines.remove(at: parent - 1)
            }
        case .writeEmpty:
            let header = lines[parent]
            let colon = header.firstIndex(of: ":") ?? header.endIndex
            lines[parent] = String(header[..<colon]) + ": {}"
        }
        return joined()
    }

    private static func isBlank(_ line: String) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    private static func isComment(_ line: String) -> Bool {
        line.drop { $0 == " " }.hasPrefix("#")
    }

    /// A line with something other than blanks and a comment.
    private static func isContent(_ line: String) -> Bool {
        !isBlank(line) && !isComment(line)
    }

    private static func indentation(_ line: String) -> Int {
        line.prefix { $0 == " " }.count
    }
}
