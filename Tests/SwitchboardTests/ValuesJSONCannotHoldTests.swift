import Testing
@testable import Switchboard
import YAML

/// Values JSON cannot hold as written are refused wherever they sit, not turned into something else: an infinity
/// or NaN inside a list or object (JSON would write `null`), a list or mapping as an object's key, and two keys
/// with the same text (`1` and `"1"`), which would leave one entry.
struct ValuesJSONCannotHoldTests {
    static let place = SourceLocation(file: "app.yaml", line: 1, column: 1)
    static let object = Definition(key: "app.support", kind: .preference, type: .object, defaultValue: .object([:]),
                                   location: place)
    static let list = Definition(key: "app.sections", kind: .preference, type: .list, defaultValue: .list([]),
                                 location: place)

    static func problem(_ text: String, _ definition: Definition) -> String? {
        switch definition.fit(text: text) {
        case .success: nil
        case .failure(let problem): problem.message
        }
    }

    @Test func anInfinityOrNaNInsideIsRefusedWithWhereItIs() {
        #expect(Self.problem(#"{"retry_after": 1e400}"#, Self.object)?.hasPrefix("inf (at retry_after) cannot be")
                    == true)
        #expect(Self.problem("[1, .nan]", Self.list)?.hasPrefix("nan (at [1]) cannot be") == true)
        #expect(Self.problem(#"{"a": {"b": [0, -.inf]}}"#, Self.object)?.hasPrefix("-inf (at a.b[1])") == true)
        #expect(Self.problem(#"{"retry_after": 1e300}"#, Self.object) == nil)
    }

    @Test func aKeyThatIsNotTextIsRefused() {
        #expect(Self.problem("{[1]: a}", Self.object) == "an object's keys are text, found a list as a key")
        #expect(Self.problem("{{b: c}: d}", Self.object) == "an object's keys are text, found a mapping as a key")
        #expect(Self.problem("[{[1]: a}]", Self.list) == "an object's keys are text, found a list as a key")
    }

    @Test func twoKeysWithTheSameTextAreRefused() {
        #expect(Self.problem(#"{1: a, "1": b}"#, Self.object) == #"the key "1" is written twice in the object"#)
        #expect(Self.problem(#"{1: a, 2: b}"#, Self.object) == nil)
    }

    @Test func aDefinitionsFileReportsThemAtTheDefault() {
        let yaml = """
            preferences:
              sections: { type: list, default: [1, .inf] }
              support: { type: object, default: {[1]: a, {b: c}: d} }
              limits: { type: object, default: {1: a, "1": b} }
            """
        let report = DefinitionLoader.load(sources: [(path: "app.yaml", bytes: Array(yaml.utf8))])
        let messages = report.diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(messages.count == 3)
        #expect(messages.contains { $0.contains("inf (at [1]) cannot be a value") })
        #expect(messages.contains { $0.contains("found a list as a key") })
        #expect(messages.contains { $0.contains(#"the key "1" is written twice"#) })
    }
}
