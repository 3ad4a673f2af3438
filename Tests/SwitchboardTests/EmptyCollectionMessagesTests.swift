import Testing
@testable import Switchboard

/// An empty `schedule`, `variants` or `values` is named as empty, not as the kind the field asks for.
struct EmptyCollectionMessagesTests {
    @Test func anEmptyFieldIsSaidToBeEmpty() {
        let yaml = """
            flags:
              c: {type: bool, default: false, schedule: []}
              g: {type: bool, default: false, variants: {}}
              h: {type: string, default: a, values: []}
            """
        let report = DefinitionLoader.load(sources: [(path: "x.yaml", bytes: Array(yaml.utf8))])
        let messages = report.diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(messages == [
            "schedule must be a list of steps, found an empty sequence",
            "variants must be a mapping from names to values, found an empty mapping",
            "values must be a non-empty list, found an empty sequence",
        ])
    }
}
