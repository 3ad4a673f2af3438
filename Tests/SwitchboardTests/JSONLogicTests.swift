import Testing
import YAML

@testable import Switchboard

/// JSONLogic as json-logic-js evaluates it (many rows are from its own test suite), plus the corners of
/// JavaScript's coercion that targeting rules meet in practice.
struct JSONLogicTests {
    /// A rule, its data and the result json-logic-js gives, all as JSON text.
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var data: String
        var expected: String

        init(_ rule: String, _ data: String, _ expected: String) {
            self.rule = rule
            self.data = data
            self.expected = expected
        }

        init(_ rule: String, _ expected: String) {
            self.init(rule, "null", expected)
        }

        var testDescription: String { "\(rule) with \(data) is \(expected)" }
    }

    static func apply(_ rule: String, _ data: String = "null") throws -> Value {
        try JSONLogic(Value(json: rule)).apply(to: Value(json: data))
    }

    static let comparisons: [Case] = [
        Case(#"{"==": [1, 1]}"#, "true"),
        Case(#"{"==": [1, "1"]}"#, "true"),
        Case(#"{"==": [1, 2]}"#, "false"),
        Case(#"{"==": [0, ""]}"#, "true"),
        Case(#"{"==": [false, "0"]}"#, "true"),
        Case(#"{"==": [null, 0]}"#, "false"),
        Case(#"{"==": [null, null]}"#, "true"),
        Case(#"{"==": [[1], 1]}"#, "true"),
        Case(#"{"==": [[], ""]}"#, "true"),
        Case(#"{"==": [1.0, 1]}"#, "true"),
        Case(#"{"==": [true, 1]}"#, "true"),
        Case(#"{"==": [true, "true"]}"#, "false"),
        Case(#"{"===": [1, 1]}"#, "true"),
        Case(#"{"===": [1, "1"]}"#, "false"),
        Case(#"{"===": [1.0, 1]}"#, "true"),
        Case(#"{"===": [null, null]}"#, "true"),
        Case(#"{"!=": [1, 2]}"#, "true"),
        Case(#"{"!=": [1, "1"]}"#, "false"),
        Case(#"{"!==": [1, "1"]}"#, "true"),
        Case(#"{"!==": [1, 1]}"#, "false"),
        Case(#"{">": [2, 1]}"#, "true"),
        Case(#"{">": [1, 1]}"#, "false"),
        Case(#"{">": ["2", 1]}"#, "true"),
        Case(#"{">=": [1, 1]}"#, "true"),
        Case(#"{">=": [0, 1]}"#, "false"),
        Case(#"{"<": [1, 2]}"#, "true"),
        Case(#"{"<": [1, "2"]}"#, "true"),
        Case(#"{"<": ["10", "9"]}"#, "true"),
        Case(#"{"<": ["10", 9]}"#, "false"),
        Case(#"{"<": ["a", 1]}"#, "false"),
        Case(#"{">=": ["a", 1]}"#, "false"),
        Case(#"{"<": [null, 1]}"#, "true"),
        Case(#"{"<": [-1]}"#, "false"),
        Case(#"{"<": [-1, null]}"#, "true"),
        Case(#"{"<": [1, 2, 3]}"#, "true"),
        Case(#"{"<": [1, 1, 3]}"#, "false"),
        Case(#"{"<": [1, 4, 3]}"#, "false"),
        Case(#"{"<=": [1, 1, 3]}"#, "true"),
        Case(#"{"<=": [1, 4, 3]}"#, "false"),
        Case(#"{"<=": [1, 2, 3]}"#, "true"),
        Case(#"{"<": [{"var": "age"}, 18]}"#, #"{"age": 17.5}"#, "true"),
    ]

    static let logic: [Case] = [
        Case(#"{"!": [false]}"#, "true"),
        Case(#"{"!": false}"#, "true"),
        Case(#"{"!": [true]}"#, "false"),
        Case(#"{"!": [[]]}"#, "true"),
        Case(#"{"!!": ["0"]}"#, "true"),
        Case(#"{"!!": [""]}"#, "false"),
        Case(#"{"!!": [[]]}"#, "false"),
        Case(#"{"!!": [[0]]}"#, "true"),
        Case(#"{"!!": [0]}"#, "false"),
        Case(#"{"!!": [{}]}"#, "true"),
        Case(#"{"or": [true, true]}"#, "true"),
        Case(#"{"or": [false, true]}"#, "true"),
        Case(#"{"or": [false, false]}"#, "false"),
        Case(#"{"or": [false, 3]}"#, "3"),
        Case(#"{"or": [false, 0]}"#, "0"),
        Case(#"{"and": [true, false]}"#, "false"),
        Case(#"{"and": [true, 3]}"#, "3"),
        Case(#"{"and": [0, 3]}"#, "0"),
        Case(#"{"and": [true, "", 3]}"#, #""""#),
        Case(#"{"?:": [true, 1, 2]}"#, "1"),
        Case(#"{"if": [true, "yes", "no"]}"#, #""yes""#),
        Case(#"{"if": [[], "yes", "no"]}"#, #""no""#),
        Case(#"{"if": [["a"], "yes", "no"]}"#, #""yes""#),
        Case(#"{"if": []}"#, "null"),
        Case(#"{"if": [true]}"#, "true"),
        Case(#"{"if": ["apple"]}"#, #""apple""#),
        Case(#"{"if": [false, "apple"]}"#, "null"),
        Case(#"{"if": [true, "apple", true, "banana", "carrot"]}"#, #""apple""#),
        Case(#"{"if": [false, "apple", true, "banana", "carrot"]}"#, #""banana""#),
        Case(#"{"if": [false, "apple", false, "banana", "carrot"]}"#, #""carrot""#),
        Case(#"{"if": [false, "apple", false, "banana"]}"#, "null"),
        Case(#"{"if": [{"<": [{"var": "t"}, 0]}, "freezing", {"<": [{"var": "t"}, 100]}, "liquid", "gas"]}"#,
             #"{"t": 55}"#, #""liquid""#),
    ]

    static let arithmetic: [Case] = [
        Case(#"{"+": [1, 2]}"#, "3"),
        Case(#"{"+": [2, 2, 2]}"#, "6"),
        Case(#"{"+": [1]}"#, "1"),
        Case(#"{"+": ["1", 1]}"#, "2"),
        Case(#"{"+": ["3abc", 1]}"#, "4"),
        Case(#"{"+": []}"#, "0"),
        Case(#"{"+": [0.1, 0.2]}"#, "0.30000000000000004"),
        Case(#"{"*": [3, 2]}"#, "6"),
        Case(#"{"*": [2, 2, 2]}"#, "8"),
        Case(#"{"*": ["1", 1]}"#, "1"),
        Case(#"{"*": ["2"]}"#, #""2""#),
        Case(#"{"-": [2, 3]}"#, "-1"),
        Case(#"{"-": [3]}"#, "-3"),
        Case(#"{"-": ["1", 1]}"#, "0"),
        Case(#"{"/": [4, 2]}"#, "2"),
        Case(#"{"/": [2, 4]}"#, "0.5"),
        Case(#"{"/": ["1", 1]}"#, "1"),
        Case(#"{"%": [1, 2]}"#, "1"),
        Case(#"{"%": [3, 2]}"#, "1"),
        Case(#"{"%": [-3, 2]}"#, "-1"),
        Case(#"{"max": [1, 2, 3]}"#, "3"),
        Case(#"{"max": [3, "7", 1]}"#, "7"),
        Case(#"{"min": [1, 2, 3]}"#, "1"),
        Case(#"{"min": [2, -1.5]}"#, "-1.5"),
    ]

    static let strings: [Case] = [
        Case(#"{"in": ["Spring", "Springfield"]}"#, "true"),
        Case(#"{"in": ["i", "team"]}"#, "false"),
        Case(#"{"in": ["Bart", ["Bart", "Homer", "Lisa"]]}"#, "true"),
        Case(#"{"in": ["1", [1, 2]]}"#, "false"),
        Case(#"{"in": [1, "a1"]}"#, "true"),
        Case(#"{"in": ["a", null]}"#, "false"),
        Case(#"{"cat": "ice"}"#, #""ice""#),
        Case(#"{"cat": ["ice", "cream"]}"#, #""icecream""#),
        Case(#"{"cat": [1, 2]}"#, #""12""#),
        Case(#"{"cat": ["Robocop", 2]}"#, #""Robocop2""#),
        Case(#"{"cat": [null, "a", true, 1.5]}"#, #""atrue1.5""#),
        Case(#"{"cat": [[1, [2, null], 3]]}"#, #""1,2,,3""#),
        Case(#"{"cat": [{"var": "o"}]}"#, #"{"o": {"a": 1}}"#, #""[object Object]""#),
        Case(#"{"cat": [1e21, 1e-7, 0.000001]}"#, #""1e+211e-70.000001""#),
        Case(#"{"substr": ["jsonlogic", 4]}"#, #""logic""#),
        Case(#"{"substr": ["jsonlogic", -5]}"#, #""logic""#),
        Case(#"{"substr": ["jsonlogic", 0, 1]}"#, #""j""#),
        Case(#"{"substr": ["jsonlogic", -1, 1]}"#, #""c""#),
        Case(#"{"substr": ["jsonlogic", 4, 5]}"#, #""logic""#),
        Case(#"{"substr": ["jsonlogic", -5, 5]}"#, #""logic""#),
        Case(#"{"substr": ["jsonlogic", -5, -2]}"#, #""log""#),
        Case(#"{"substr": ["jsonlogic", 1, -5]}"#, #""son""#),
        Case(#"{"substr": ["jsonlogic", 20]}"#, #""""#),
        Case(#"{"substr": [12345, 1, 2]}"#, #""23""#),
        Case(#"{"starts_with": [{"var": "email"}, "admin@"]}"#, #"{"email": "admin@x.io"}"#, "true"),
        Case(#"{"ends_with": [{"var": "email"}, "@x.io"]}"#, #"{"email": "admin@y.io"}"#, "false"),
        Case(#"{"starts_with": [{"var": "n"}, "1"]}"#, #"{"n": 12}"#, "null"),
        Case(#"{"ends_with": ["abc"]}"#, "null"),
    ]

    static let arrays: [Case] = [
        Case(#"{"merge": []}"#, "[]"),
        Case(#"{"merge": [[1], []]}"#, "[1]"),
        Case(#"{"merge": [[1], [2], [3]]}"#, "[1, 2, 3]"),
        Case(#"{"merge": [[1, 2], [3]]}"#, "[1, 2, 3]"),
        Case(#"{"merge": [1, [2, [3]]]}"#, "[1, 2, [3]]"),
        Case(#"{"map": [{"var": "integers"}, {"*": [{"var": ""}, 2]}]}"#, #"{"integers": [1, 2, 3]}"#, "[2, 4, 6]"),
        Case(#"{"map": [{"var": "integers"}, {"*": [{"var": ""}, 2]}]}"#, "null", "[]"),
        Case(#"{"filter": [{"var": "integers"}, {"%": [{"var": ""}, 2]}]}"#, #"{"integers": [1, 2, 3, 4, 5]}"#,
             "[1, 3, 5]"),
        Case(#"{"reduce": [{"var": "integers"}, {"+": [{"var": "current"}, {"var": "accumulator"}]}, 0]}"#,
             #"{"integers": [1, 2, 3, 4, 5]}"#, "15"),
        Case(#"{"reduce": [{"var": "integers"}, {"*": [{"var": "current"}, {"var": "accumulator"}]}, 1]}"#,
             #"{"integers": [1, 2, 3, 4, 5]}"#, "120"),
        Case(#"{"reduce": [{"var": "missing"}, {"+": [{"var": "current"}, {"var": "accumulator"}]}, 0]}"#,
             "null", "0"),
        Case(#"{"all": [{"var": "xs"}, {">=": [{"var": ""}, 1]}]}"#, #"{"xs": [1, 2, 3]}"#, "true"),
        Case(#"{"all": [{"var": "xs"}, {">=": [{"var": ""}, 1]}]}"#, #"{"xs": [0, 1]}"#, "false"),
        Case(#"{"all": [[], {">=": [{"var": ""}, 1]}]}"#, "false"),
        Case(#"{"none": [{"var": "xs"}, {">=": [{"var": ""}, 1]}]}"#, #"{"xs": [-1, 0]}"#, "true"),
        Case(#"{"none": [[], true]}"#, "true"),
        Case(#"{"some": [{"var": "xs"}, {"==": [{"var": "name"}, "b"]}]}"#,
             #"{"xs": [{"name": "a"}, {"name": "b"}]}"#, "true"),
        Case(#"{"some": [[], true]}"#, "false"),
    ]

    static let data: [Case] = [
        Case(#"{"var": ["a"]}"#, #"{"a": 1}"#, "1"),
        Case(#"{"var": ["b"]}"#, #"{"a": 1}"#, "null"),
        Case(#"{"var": ["a"]}"#, "null", "null"),
        Case(#"{"var": "a"}"#, #"{"a": 1}"#, "1"),
        Case(#"{"var": ["a", 1]}"#, "null", "1"),
        Case(#"{"var": ["b", 2]}"#, #"{"a": 1}"#, "2"),
        Case(#"{"var": ["a", 5]}"#, #"{"a": null}"#, "null"),
        Case(#"{"var": "a.b"}"#, #"{"a": {"b": "c"}}"#, #""c""#),
        Case(#"{"var": "a.q"}"#, #"{"a": {"b": "c"}}"#, "null"),
        Case(#"{"var": ["a.q", 9]}"#, #"{"a": {"b": "c"}}"#, "9"),
        Case(#"{"var": 1}"#, #"["apple", "banana"]"#, #""banana""#),
        Case(#"{"var": "1"}"#, #"["apple", "banana"]"#, #""banana""#),
        Case(#"{"var": "1.1"}"#, #"["apple", ["banana", "beer"]]"#, #""beer""#),
        Case(#"{"var": "a.0.b"}"#, #"{"a": [{"b": 1}]}"#, "1"),
        Case(#"{"var": "a.01"}"#, #"{"a": [1, 2]}"#, "null"),
        Case(#"{"var": ""}"#, "1", "1"),
        Case(#"{"var": null}"#, "1", "1"),
        Case(#"{"var": []}"#, "1", "1"),
        Case(#"{"var": {"cat": ["a", ".b"]}}"#, #"{"a": {"b": 7}}"#, "7"),
        Case(#"{"var": "$flagd.flagKey"}"#, #"{"$flagd": {"flagKey": "f"}}"#, #""f""#),
        Case(#"{"missing": []}"#, "null", "[]"),
        Case(#"{"missing": ["a"]}"#, "null", #"["a"]"#),
        Case(#"{"missing": "a"}"#, #"{"a": "apple"}"#, "[]"),
        Case(#"{"missing": ["a", "b"]}"#, #"{"a": "apple", "b": ""}"#, #"["b"]"#),
        Case(#"{"missing": ["a.b"]}"#, #"{"a": "apple"}"#, #"["a.b"]"#),
        Case(#"{"missing": {"merge": ["vin", {"if": [{"var": "financing"}, ["apr"], []]}]}}"#,
             #"{"financing": true}"#, #"["vin", "apr"]"#),
        Case(#"{"missing_some": [1, ["a", "b"]]}"#, #"{"a": "apple"}"#, "[]"),
        Case(#"{"missing_some": [2, ["a", "b"]]}"#, #"{"a": "apple"}"#, #"["b"]"#),
        Case(#"{"missing_some": [2, ["a", "b", "c"]]}"#, #"{"a": "apple"}"#, #"["b", "c"]"#),
        Case(#"{"log": "apple"}"#, #""apple""#),
        Case(#"{"a": 1, "b": 2}"#, #"{"a": 1, "b": 2}"#),
        Case(#"[1, {"var": "x"}]"#, #"{"x": 2}"#, "[1, 2]"),
        Case(#""literal""#, #""literal""#),
    ]

    @Test(arguments: comparisons + logic + arithmetic + strings + arrays + data)
    func rule(_ example: Case) throws {
        let result = try Self.apply(example.rule, example.data)
        let expected = try Value(json: example.expected)
        #expect(JS.strictEquals(result, expected), "got \(result)")
    }

    @Test func divisionByZeroAndNaNFollowJavaScript() throws {
        #expect(try Self.apply(#"{"/": [1, 0]}"#) == .double(.infinity))
        #expect(try Self.apply(#"{"-": [1]}"#) == -1)
        let nan = try Self.apply(#"{"-": ["abc", 1]}"#)
        #expect(nan.doubleValue?.isNaN == true)
        #expect(try Self.apply(#"{"!!": [{"-": ["abc", 1]}]}"#) == false)
        #expect(try Self.apply(#"{"max": []}"#) == .double(-.infinity))
    }

    @Test func semanticVersionsAndFlagdOperationsWorkOutsideFlags() throws {
        #expect(try Self.apply(#"{"sem_ver": [{"var": "v"}, ">=", "1.2.0"]}"#, #"{"v": "v1.10.0"}"#) == true)
        #expect(try Self.apply(#"{"sem_ver": [{"var": "v"}, {"var": "op"}, "1.2.0"]}"#,
                               #"{"v": "1.1.9", "op": "<"}"#) == true)
        #expect(try Self.apply(#"{"sem_ver": ["1.0.0", "=="]}"#) == .null)
        let split = #"{"fractional": [{"var": "id"}, ["a", 50], ["b", 50]]}"#
        let a = try Self.apply(split, #"{"id": "ejOoVL"}"#)
        #expect(try JSONLogic(Value(json: split)).apply(to: ["id": "ejOoVL"], fractional: .v2) == "a")
        #expect(a == "a" || a == "b")
    }

    @Test func unknownOperationsCompileButThrowWhenApplied() throws {
        let rule = JSONLogic(try Value(json: #"{"if": [{"sparkle": [1]}, 1, 2]}"#))
        #expect(rule.diagnostics.count == 1)
        #expect(rule.diagnostics.first?.message == "unknown operation 'sparkle'")
        #expect(throws: JSONLogicError.self) { try rule.apply(to: .null) }
        #expect(throws: JSONLogicError.self) { try Self.apply(#"{"*": []}"#) }
    }

    @Test func evaluatorsAreSubstitutedAndMissingOnesReported() throws {
        let evaluators: [String: Value] = [
            "adult": try Value(json: #"{">=": [{"var": "age"}, 18]}"#),
            "adult_admin": try Value(json: #"{"and": [{"$ref": "adult"}, {"var": "admin"}]}"#),
            "loop": try Value(json: #"{"!": {"$ref": "loop"}}"#),
        ]
        let rule = JSONLogic(try Value(json: #"{"if": [{"$ref": "adult_admin"}, "yes", "no"]}"#),
                             evaluators: evaluators)
        #expect(rule.diagnostics.isEmpty)
        #expect(try rule.apply(to: ["age": 30, "admin": true]) == "yes")
        #expect(try rule.apply(to: ["age": 30, "admin": false]) == "no")

        let missing = JSONLogic(try Value(json: #"{"$ref": "adults"}"#), evaluators: evaluators)
        #expect(missing.diagnostics.first?.hint == "did you mean 'adult'?")
        #expect(throws: JSONLogicError.self) { try missing.apply(to: .null) }

        let cycle = JSONLogic(try Value(json: #"{"$ref": "loop"}"#), evaluators: evaluators)
        #expect(cycle.diagnostics.first?.message.contains("refers to itself") == true)
    }

    @Test func arityMistakesAreDiagnosed() throws {
        let examples: [(String, String)] = [
            (#"{"sem_ver": [{"var": "v"}, ">"]}"#, "'sem_ver' takes 3 arguments, not 2"),
            (#"{"==": [1]}"#, "'==' takes 2 arguments, not 1"),
            (#"{"<": [1, 2, 3, 4]}"#, "'<' takes 2 to 3 arguments, not 4"),
            (#"{"map": [[1]]}"#, "'map' takes 2 arguments, not 1"),
            (#"{"fractional": []}"#, "'fractional' takes at least 1 argument, not 0"),
            (#"{"sem_ver": ["1.0", "=>", "1.0.0"]}"#, #"unknown sem_ver operator "=>""#),
            (#"{"sem_ver": ["1.0", "=", "one"]}"#, #""one" is not a semantic version"#),
            (#"{"fractional": ["k", ["a", 1.5]]}"#, "fractional weights are whole numbers, not 1.5"),
            (#"{"fractional": ["k", ["a", 9223372036854775807], ["b", 1]]}"#,
             "fractional weights add up to more than the allowed 2147483647"),
            (#"{"fractional": ["k", ["a", 4611686018427387904], ["b", 4611686018427387904]]}"#,
             "fractional weights add up to more than the allowed 2147483647"),
        ]
        for (rule, message) in examples {
            let compiled = JSONLogic(try Value(json: rule))
            #expect(compiled.diagnostics.map(\.message).contains(message), "\(rule): \(compiled.diagnostics)")
        }
    }

    @Test func diagnosticsFromANodeCarryPositions() throws {
        let yaml = """
            if:
              - ==: [{ var: tier }, gold]
              - fast
              - { spped: 1 }
            """
        let document = YAMLParser.parse(Array(yaml.utf8), file: "rule.yaml")
        let rule = JSONLogic(node: try #require(document.root))
        let diagnostic = try #require(rule.diagnostics.first)
        #expect(diagnostic.description.hasPrefix("rule.yaml:4:7: error: unknown operation 'spped'"))
        #expect(try rule.apply(to: ["tier": "gold"]) == "fast")
    }

    @Test func javaScriptNumberFormatting() {
        let examples: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (1.5, "1.5"), (-2.25, "-2.25"), (0.1, "0.1"), (1e21, "1e+21"),
            (1e20, "100000000000000000000"), (123456789.125, "123456789.125"), (0.000001, "0.000001"),
            (1e-7, "1e-7"), (1.5e-10, "1.5e-10"), (.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (.nan, "NaN"), (-.infinity, "-Infinity"),
        ]
        for (number, text) in examples {
            #expect(JS.numberToString(number) == text)
        }
    }

    @Test func javaScriptStringToNumber() {
        let examples: [(String, Double)] = [
            ("", 0), ("  12  ", 12), ("1e3", 1000), ("-.5", -0.5), ("5.", 5), ("0x1F", 31), ("+4", 4),
            ("Infinity", .infinity), ("-Infinity", -.infinity),
            // Trimmed text keeps its indices: a prefix after whitespace was once read from the untrimmed start.
            ("  0x1F  ", 31), ("\t0b101\n", 5), (" 0o17", 15), ("  007 ", 7),
        ]
        for (text, number) in examples {
            #expect(JS.stringToNumber(text) == number, "\(text)")
        }
        for text in ["abc", "1 2", "0x", "1e", "inf", "nan", "--1", "0x1.8p1", "   0    e.", "  0xZ "] {
            #expect(JS.stringToNumber(text).isNaN, "\(text)")
        }
        #expect(JS.parseFloat("3.5kg") == 3.5)
        #expect(JS.parseFloat(" -2e2x") == -200)
        #expect(JS.parseFloat("x1").isNaN)
    }

    @Test func stringComparisonsUseCodeUnitsNotCanonicalEquivalence() throws {
        // A precomposed and a decomposed "é" are equal to Swift but not to JavaScript.
        #expect(try JSONLogic(["==": [.string("\u{E9}"), .string("e\u{301}")]]).apply(to: .null) == false)
        #expect(try JSONLogic(["<": [.string("\u{FF61}"), .string("\u{1F600}")]]).apply(to: .null) == false)
    }
}
