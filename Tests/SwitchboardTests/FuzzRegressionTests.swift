import SwitchboardTestSupport
import Testing

@testable import Switchboard

/// Inputs the fuzzers once crashed on (`Fixtures/fuzz-crashes/TARGET/`), fed to the same API their fuzz target
/// drives, each with the result JavaScript gives. A crash here is a trap, which fails the test run.
struct FuzzRegressionTests {
    /// A JSONLogic input file and its result as JSON text, or `NaN`.
    static let jsonLogicInputs: [(file: String, expected: String)] = [
        // {"/":"   0   e."}: the string is not a number, so the division is NaN.
        ("divide-padded-string", "NaN"),
        // {"map":[{"-":"  -8!"}]}: negating a non-number is NaN, and mapping over a non-array gives [].
        ("map-minus-padded-string", "[]"),
    ]

    /// Strings with leading whitespace: coercing them to numbers once indexed the trimmed text from the untrimmed
    /// text's start and trapped out of bounds.
    @Test(arguments: jsonLogicInputs)
    func jsonLogicInputGivesItsJavaScriptResult(file: String, expected: String) throws {
        let rule = try Value(jsonBytes: fixtures.bytes("fuzz-crashes/jsonlogic/\(file)"))
        let logic = JSONLogic(rule, evaluators: ["shared": rule])
        for algorithm in [FractionalAlgorithm.v3, .v2] {
            let result = try logic.apply(to: .object([:]), fractional: algorithm)
            if expected == "NaN" {
                #expect(JS.toNumber(result).isNaN, "\(result)")
            } else {
                #expect(result == (try Value(json: expected)))
            }
        }
    }
}
