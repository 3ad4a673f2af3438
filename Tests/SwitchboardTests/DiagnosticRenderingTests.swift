import Testing
@testable import Switchboard
import YAML

/// Diagnostics render in one exact form, with hints that help.
struct DiagnosticRenderingTests {
    func errors(_ text: String) -> [String] {
        DefinitionLoader.load(sources: [("flags/c.yaml", Array(text.utf8))]).errors.map(\.description)
    }

    @Test func unknownFieldSuggestsTheNearestField() {
        #expect(errors("flags:\n  a:\n    type: bool\n    default: true\n    ownr: me\n") == [
            "flags/c.yaml:5:5: error: unknown field 'ownr' in a\n  hint: did you mean 'owner'?",
        ])
    }

    @Test func boolWrittenYesSaysToWriteTrue() {
        #expect(errors("flags:\n  a:\n    type: bool\n    default: yes\n") == [
            "flags/c.yaml:4:14: error: default of a: expected a bool, found the string \"yes\"\n"
                + "  hint: write true (only true and false are booleans in YAML 1.2)",
        ])
    }

    /// Quoted or tagged `!!str`, `"true"` and `"5"` are strings: the hint says to write them plain. Other text is
    /// named.
    @Test func aQuotedBoolOrNumberSaysToRemoveTheQuotes() {
        #expect(errors("flags:\n  a:\n    type: bool\n    default: \"true\"\n") == [
            "flags/c.yaml:4:14: error: default of a: expected a bool, found the string \"true\"\n"
                + "  hint: write it plain, without quotes or a !!str tag: as written, it is a string",
        ])
        #expect(errors("preferences:\n  n:\n    type: double\n    default: '5'\n") == [
            "flags/c.yaml:4:14: error: default of n: expected a double, found the string \"5\"\n"
                + "  hint: write it plain, without quotes or a !!str tag: as written, it is a string",
        ])
        #expect(errors("preferences:\n  n:\n    type: int\n    default: !!str 5\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found the string \"5\"\n"
                + "  hint: write it plain, without quotes or a !!str tag: as written, it is a string",
        ])
        #expect(errors("preferences:\n  n:\n    type: int\n    default: five\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found the string \"five\"",
        ])
    }

    @Test func aRangeOpenAtOneEndIsHintedByItsOneBound() {
        #expect(errors("preferences:\n  n:\n    type: int\n    min: 1\n    default: 0\n") == [
            "flags/c.yaml:5:14: error: default of n: 0 is below the minimum 1 of n\n  hint: at least 1",
        ])
        #expect(errors("preferences:\n  n:\n    type: int\n    min: 1\n    max: 5\n    default: 9\n") == [
            "flags/c.yaml:6:14: error: default of n: 9 is above the maximum 5 of n\n  hint: allowed range: 1 to 5",
        ])
    }

    @Test func defaultOutsideValuesListsTheAllowedValues() {
        #expect(errors("preferences:\n  t:\n    type: string\n    values: [light, dark]\n    default: blue\n") == [
            "flags/c.yaml:5:14: error: default of t: blue is not an allowed value of t\n"
                + "  hint: allowed values: light, dark",
        ])
    }

    @Test func invalidKeySuggestsAValidSpelling() {
        #expect(errors("flags:\n  New Flow:\n    type: bool\n    default: true\n") == [
            "flags/c.yaml:2:3: error: invalid key 'New Flow'\n"
                + "  hint: keys are dot-separated segments of lowercase letters, digits, '_' and '-'; try 'new_flow'",
        ])
    }

    @Test func intWrittenAsDecimal() {
        #expect(errors("preferences:\n  n:\n    type: int\n    default: 2.0\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found the double 2.0\n"
                + "  hint: an int is a whole number written without a point or exponent: 2",
        ])
        // `1e3` has no decimal point to remove: the hint names the number as an int is written.
        #expect(errors("preferences:\n  n:\n    type: int\n    default: 1e3\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found the double 1000.0\n"
                + "  hint: an int is a whole number written without a point or exponent: 1000",
        ])
    }

    /// An int too large for an int is read as a double; the hint speaks of the range, not of a decimal point
    /// nobody wrote.
    @Test func intPastTheLargestInt() {
        #expect(errors("preferences:\n  n:\n    type: int\n    default: 99999999999999999999\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found 1e+20, outside the range of an int\n"
                + "  hint: an int is from -9223372036854775808 to 9223372036854775807",
        ])
        // Past a double's range too: no digits to show, and never "null".
        #expect(errors("preferences:\n  n:\n    type: int\n    default: 1e400\n") == [
            "flags/c.yaml:4:14: error: default of n: expected an int, found a number past the range of any number "
                + "type\n  hint: an int is from -9223372036854775808 to 9223372036854775807",
        ])
    }
}
