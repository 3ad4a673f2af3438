/// "Did you mean" suggestions by edit distance, shared by diagnostics, the CLI and the REPL.
package enum Suggestions {
    /// How many edits away a candidate may be and still be what `word` meant: one for a word of three letters or
    /// fewer (`foo` is not `log`), else two, or a third of a long word.
    static func typoDistance(of word: String) -> Int {
        word.count <= 3 ? 1 : max(2, word.count / 3)
    }

    /// The candidate nearest to `word`, when it is near enough to be a likely typo.
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = typoDistance(of: word)
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        return best?.0
    }

    /// The candidates within a typo's distance of `word`, nearest first.
    package static func near(_ word: String, in candidates: some Sequence<String>, limit count: Int = 3) -> [String] {
        let limit = typoDistance(of: word)
        let scored: [(candidate: String, distance: Int)] = candidates.map { ($0, editDistance(word, $0)) }
        let close = scored.filter { $0.distance <= limit }
        let ordered = close.sorted { a, b in
            a.distance == b.distance ? a.candidate < b.candidate : a.distance < b.distance
        }
        let closeNames = Set(close.map(\.candidate))
        let prefixed = candidates.filter { candidate in candidate.hasPrefix(word) && !closeNames.contains(candidate) }
        return Array((ordered.map(\.candidate) + prefixed.sorted()).prefix(count))
    }

    /// Damerau–Levenshtein distance (optimal string alignment), so a swapped pair of letters counts once.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
