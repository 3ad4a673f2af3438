import Foundation
import Locking

/// A regular expression compiled once, for `pattern` constraints and the `matches` rule operator.
///
/// Wraps `NSRegularExpression` (ICU syntax, the same on Linux and macOS), which is immutable and safe to share
/// across threads.
///
/// Foundation on Linux leaks when it compiles a valid pattern longer than 256 UTF-16 units: it copies the pattern
/// into a buffer that it frees only when compiling fails (`_CFRegularExpressionCreate`), twice the pattern's
/// length in bytes each time. So a long pattern is compiled at most once per process and kept, and a pattern
/// computed while evaluating (``init(computed:)``), which a request can choose, may not be long.
struct RegularExpression: @unchecked Sendable {
    private let expression: NSRegularExpression
    /// The pattern as written.
    let pattern: String

    /// The longest pattern, in UTF-16 units, that Foundation compiles without leaking.
    static let longestLeakFree = 256

    /// Whether Foundation leaks when it compiles `pattern`: longer than ``longestLeakFree`` UTF-16 units.
    static func isLong(_ pattern: String) -> Bool {
        pattern.utf16.count > longestLeakFree
    }

    /// Compiled patterns by text: definitions files repeat the same few patterns, and ICU compilation is slow.
    private static let cache = Locked(Cache())

    private struct Cache {
        /// Patterns of at most ``longestLeakFree`` units, emptied when it grows past 1,000.
        var short: [String: RegularExpression] = [:]
        /// Longer patterns, kept for good: compiling one again would leak again. Only definitions (reviewed,
        /// finite) reach it.
        var long: [String: RegularExpression] = [:]

        mutating func compiled(_ pattern: String) -> RegularExpression? {
            let isLong = RegularExpression.isLong(pattern)
            if let found = isLong ? long[pattern] : short[pattern] { return found }
            guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
            let compiled = RegularExpression(expression: expression, pattern: pattern)
            if isLong {
                long[pattern] = compiled
            } else {
                if short.count >= 1000 { short.removeAll() }
                short[pattern] = compiled
            }
            return compiled
        }
    }

    private init(expression: NSRegularExpression, pattern: String) {
        self.expression = expression
        self.pattern = pattern
    }

    /// Compiles a pattern written in a definition (or reuses its earlier compilation); `nil` when it is invalid.
    /// Compiles under the cache's lock, so two threads never compile (and leak) the same long pattern twice.
    init?(_ pattern: String) {
        guard let compiled = Self.cache.withLock({ $0.compiled(pattern) }) else { return nil }
        self = compiled
    }

    /// Compiles a pattern computed while evaluating a rule; `nil` when it is invalid or longer than
    /// ``longestLeakFree`` UTF-16 units, so that no context can make the process leak or grow.
    init?(computed pattern: String) {
        guard !Self.isLong(pattern) else { return nil }
        self.init(pattern)
    }

    /// Whether the pattern's compilation is cached, for tests.
    static func isCached(_ pattern: String) -> Bool {
        cache.withLock { $0.short[pattern] != nil || $0.long[pattern] != nil }
    }

    /// Whether the text contains a match.
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Whether the whole text matches.
    func matchesWhole(_ text: String) -> Bool {
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else {
            return false
        }
        return match.range == NSRange(text.startIndex..., in: text)
    }
}
