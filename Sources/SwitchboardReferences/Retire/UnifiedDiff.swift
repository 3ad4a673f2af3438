/// A unified diff of two texts, line by line (Myers' algorithm), with three lines of context, as `diff -u` and
/// `git diff` print it: `--- a/path`, `+++ b/path`, then `@@ -l,n +l,n @@` hunks.
enum UnifiedDiff {
    /// The diff of `before` and `after` under `path`; empty when they are equal.
    static func render(path: String, before: String, after: String, context: Int = 3) -> String {
        guard before != after else { return "" }
        let old = lines(before), new = lines(after)
        let script = edits(old, new)
        // Each change with `context` lines around it; ranges that touch make one hunk.
        var ranges: [ClosedRange<Int>] = []
        for (index, edit) in script.enumerated() where edit.kind != .same {
            let range = Swift.max(0, index - context)...Swift.min(script.count - 1, index + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...range.upperBound
            } else {
                ranges.append(range)
            }
        }
        let hunks = ranges.map { Array(script[$0]) }
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        for hunk in hunks {
            let oldLines = hunk.filter { $0.kind != .insert }, newLines = hunk.filter { $0.kind != .delete }
            let oldStart = (hunk.first { $0.kind != .insert }?.oldIndex ?? hunk[0].oldIndex) + (oldLines.isEmpty ? 0 : 1)
            let newStart = (hunk.first { $0.kind != .delete }?.newIndex ?? hunk[0].newIndex) + (newLines.isEmpty ? 0 : 1)
            out += "@@ -\(oldStart),\(oldLines.count) +\(newStart),\(newLines.count) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + old[edit.oldIndex] + "\n"
                case .delete: out += "-" + old[edit.oldIndex] + "\n"
                case .insert: out += "+" + new[edit.newIndex] + "\n"
                }
            }
        }
        return out
    }

    /// The line (from 1) of `before` that line `line` of `text` comes from: the same line where it was kept, else
    /// the line of `before` its change stands in place of.
    static func originalLine(of line: Int, in text: String, before: String) -> Int {
        let script = edits(lines(before), lines(text))
        guard let edit = script.first(where: { $0.kind != .delete && $0.newIndex == line - 1 }) else { return line }
        return edit.oldIndex + 1
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// The line's index in the old text (for an insert: the old line it comes before).
        var oldIndex: Int
        /// The line's index in the new text (for a delete: the new line it comes before).
        var newIndex: Int
    }

    /// The shortest edit script from `a` to `b`.
    static func edits(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count, m = b.count, max = n + m
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        outer: for d in 0...max {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || k != d && v[max + k - 1] < v[max + k + 1] ? v[max + k + 1] : v[max + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[max + k] = x
                if x >= n, y >= m { trace.append(v); break outer }
            }
        }
        // Walk back through the saved frontiers.
        var script: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 2, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = k == -d || k != d && v[max + k - 1] < v[max + k + 1] ? k + 1 : k - 1
            let previousX = v[max + previousK], previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                script.append(Edit(kind: .same, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX { y -= 1; script.append(Edit(kind: .insert, oldIndex: x, newIndex: y)) }
                else { x -= 1; script.append(Edit(kind: .delete, oldIndex: x, newIndex: y)) }
            }
            x = previousX; y = previousY
        }
        return script.reversed()
    }
}
