import Switchboard

/// A shell-style glob: `*` any run of characters, `?` one character.
///
/// ```swift
/// Glob("checkout.*").matches("checkout.new_flow")   // true
/// ```
public struct Glob: Sendable {
    /// The pattern's characters.
    public let pattern: [Character]

    /// A glob from its pattern.
    public init(_ pattern: String) {
        self.pattern = Array(pattern)
    }

    /// Whether the pattern has a wildcard at all; one without is an exact match.
    public var hasWildcards: Bool {
        pattern.contains("*") || pattern.contains("?")
    }

    /// Whether `text` matches the whole pattern.
    public func matches(_ text: String) -> Bool {
        let text = Array(text)
        var p = 0, t = 0, star = -1, mark = 0
        // Greedy with backtracking to the last `*`: linear in practice, no recursion.
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

extension Glob {
    /// Whether `list PATTERN` shows a key, on the command line and in the REPL alike: the glob's match, or for a
    /// pattern without wildcards the key itself and the keys below it as a namespace (`list checkout` and
    /// `list checkout.` the checkout keys, `list checkout.new_flow` that key, never `checkouts.x`).
    public func selects(key: String) -> Bool {
        if hasWildcards { return matches(key) }
        let text = String(pattern)
        return text.hasSuffix(".") ? key.hasPrefix(text) : KeySyntax.namespace(text, covers: key)
    }
}
