import Testing
@testable import Switchboard

/// Foundation leaks its copy of any valid pattern over 256 UTF-16 units each time it compiles one: long patterns
/// are compiled once and kept, and a pattern computed while evaluating (which a request may choose) may not be long.
struct RegularExpressionTests {
    /// `{"matches": [text, pattern]}` with both from the data, so the pattern is computed at evaluation.
    static func matchComputed(_ text: String, _ pattern: String) throws(JSONLogicError) -> Value {
        try JSONLogic(.object(["matches": .list([.object(["var": "text"]), .object(["var": "pattern"])])]))
            .apply(to: .object(["text": .string(text), "pattern": .string(pattern)]))
    }

    /// A pattern of `count` UTF-16 units that matches "ab".
    static func pattern(units count: Int) -> String {
        String(repeating: "a?", count: (count - 2) / 2) + "ab"
    }

    @Test func aComputedPatternOfTheLimitMatches() throws {
        let pattern = Self.pattern(units: RegularExpression.longestLeakFree)
        #expect(pattern.utf16.count == 256)
        #expect(try Self.matchComputed("xaby", pattern) == .bool(true))
        #expect(try Self.matchComputed("xy", pattern) == .bool(false))
    }

    @Test func aLongerComputedPatternIsRefusedWithItsLength() {
        let pattern = Self.pattern(units: 258)
        #expect(throws: JSONLogicError(
            "'matches' takes a computed pattern of at most 256 UTF-16 units, not 258; "
                + "write a longer pattern literally in the rule")) {
            try Self.matchComputed("xaby", pattern)
        }
        #expect(RegularExpression(computed: pattern) == nil)
        #expect(!RegularExpression.isCached(pattern))
    }

    @Test func anInvalidComputedPatternIsRefused() {
        #expect(throws: JSONLogicError("'matches' needs a valid regular expression")) {
            try Self.matchComputed("x", "(")
        }
    }

    @Test func aLongLiteralPatternWorksAndOutlivesTheFlushOfShortOnes() throws {
        let long = "^(" + (0..<80).map { "code\($0)" }.joined(separator: "|") + ")$"
        #expect(long.utf16.count > RegularExpression.longestLeakFree)
        let rule = JSONLogic(.object(["matches": .list([.object(["var": "code"]), .string(long)])]))
        #expect(try rule.apply(to: .object(["code": "code42"])) == .bool(true))
        #expect(try rule.apply(to: .object(["code": "code80"])) == .bool(false))
        #expect(RegularExpression.isCached(long))

        let first = "regular-expression-tests-0"
        for index in 0...1000 { #expect(RegularExpression("regular-expression-tests-\(index)") != nil) }
        // 1,001 short patterns emptied the short ones at least once since the first of them, and kept the long one.
        #expect(!RegularExpression.isCached(first))
        #expect(RegularExpression.isCached(long))
    }
}
