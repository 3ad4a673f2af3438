import Testing

@testable import Switchboard

/// The compiler folds `{OP: [{"var": X}, LITERAL]}` (and readable rules' `x != null and x < N`) into one
/// ``AttributeTest`` node for speed. Folding must change nothing: every folded rule gives what the general nodes
/// give, for every kind of attribute value, as plain data and as a flag evaluation's context.
struct AttributeTestFoldingTests {
    static let values: [Value?] = [
        nil, .null, true, false, 0, 1, 17, 18, 18.5, -3, "18", "", "abc", "DE", "someone@example.com", "@example.com",
        "2026-01-01", .list([]), .list(["DE"]), .list([18]), .object(["a": 1]),
    ]

    static let rules: [Value] = {
        var rules: [Value] = []
        let x: Value = ["var": "x"]
        let literals: [Value] = [.null, true, false, 0, 18, 18.5, "18", "", "DE", .list(["DE", "AT"]), .list([18, "x"])]
        for op in ["==", "===", "!=", "!==", "<", "<=", ">", ">=", "in"] {
            for literal in literals { rules.append([op: [x, literal]]) }
        }
        for op in ["starts_with", "ends_with"] {
            for literal: Value in ["", "some", "@example.com", "DE"] { rules.append([op: [x, literal]]) }
        }
        for op in ["<", "<=", ">", ">="] {
            for literal: Value in [0, 18, "18", .null] {
                rules.append(["and": [["!=": [x, .null]], [op: [x, literal]]]])
            }
        }
        // A nested path, and shapes that must not fold (or fold only in part).
        rules.append(["<": [["var": "user.age"], 18]])
        rules.append(["and": [["!=": [["var": "y"], .null]], ["<": [x, 18]]]])
        rules.append(["==": [["var": ["x", 5]], 5]])
        return rules
    }()

    /// The data (or attributes) a rule reads: `x` and `user.age` hold the value, or are missing.
    static func data(x value: Value?) -> [String: Value] {
        var data: [String: Value] = [:]
        data["x"] = value
        data["user"] = value.map { ["age": $0] }
        return data
    }

    @Test("folded and general rules agree on plain data", arguments: rules)
    func plainData(_ rule: Value) throws {
        let folded = JSONLogic(rule)
        let general = JSONLogic(unspecialized: rule)
        for value in Self.values {
            let data = Self.data(x: value)
            let expected = try general.apply(to: .object(data))
            #expect(try folded.apply(to: .object(data)) == expected, "x = \(value.map(\.description) ?? "missing")")
        }
    }

    @Test("folded and general rules agree on a flag evaluation's context", arguments: rules)
    func flagContext(_ rule: Value) throws {
        let folded = JSONLogic(rule)
        let general = JSONLogic(unspecialized: rule)
        for value in Self.values {
            let attributes = Self.data(x: value)
            for (caller, statics) in [(attributes, [String: Value]()), ([:], attributes)] {
                let context = EvaluationContext(targetingKey: "user-1", attributes: caller)
                let run = LogicRun(context: context, staticAttributes: statics, flagKey: "f", timestamp: 0,
                                   algorithm: .v3)
                #expect(try run.evaluate(folded.root, in: nil) == run.evaluate(general.root, in: nil),
                        "x = \(value.map(\.description) ?? "missing")")
            }
        }
    }

    @Test("readable rules' shapes are folded")
    func folds() {
        let shapes: [Value] = [
            ["ends_with": [["var": "email"], "@example.com"]],
            ["in": [["var": "country"], .list(["DE", "AT"])]],
            ["===": [["var": "plan"], "pro"]],
            ["and": [["!=": [["var": "age"], .null]], ["<": [["var": "age"], 18]]]],
        ]
        for shape in shapes {
            guard case .attributeTest = JSONLogic(shape).root else {
                Issue.record("not folded: \(shape)")
                continue
            }
        }
        guard case .equality = JSONLogic(unspecialized: shapes[2]).root else {
            Issue.record("the reference compiler folded")
            return
        }
    }
}
