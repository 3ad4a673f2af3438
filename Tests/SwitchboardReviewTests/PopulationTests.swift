import Switchboard
import SwitchboardReview
import Testing

/// The population: JSON Lines read exactly, synthesized contexts that test every tested value and one that
/// matches none, the same for the same seed.
@Suite struct PopulationTests {
    @Test func readsJSONLines() throws {
        let population = try Population(jsonLines: """
            {"targetingKey": "u1", "plan": "pro", "age": 42}

            {"country": "de"}
            """, file: "contexts.jsonl")
        #expect(population.contexts == [
            EvaluationContext(targetingKey: "u1", attributes: ["plan": .string("pro"), "age": .int(42)]),
            EvaluationContext(attributes: ["country": .string("de")]),
        ])
    }

    @Test func aLineThatIsNotAnObjectIsNamed() {
        #expect(throws: ReviewError("contexts.jsonl:2: a context is a JSON object", hint: Population.lineHint)) {
            try Population(jsonLines: "{}\n[1]\n", file: "contexts.jsonl")
        }
    }

    @Test func findsTheAttributesRulesTest() {
        var attributes: [String: [Value]] = [:]
        let rule: Value = .object(["and": .list([
            .object(["==": .list([.object(["var": .string("plan")]), .string("pro")])]),
            .object(["in": .list([.object(["var": .string("country")]), .list([.string("de"), .string("fr")])])]),
            .object([">=": .list([.object(["var": .string("age")]), .int(18)])]),
        ])])
        Population.testedAttributes(in: rule, into: &attributes)
        #expect(attributes == ["plan": [.string("pro")], "country": [.string("de"), .string("fr")], "age": [.int(18)]])
    }

    @Test func theSameSeedGivesTheSameContexts() {
        let attributes: [String: [Value]] = ["plan": [.string("pro"), .string("team")]]
        let one = Population(synthesizing: 500, seed: 7, attributes: attributes)
        let two = Population(synthesizing: 500, seed: 7, attributes: attributes)
        let other = Population(synthesizing: 500, seed: 8, attributes: attributes)
        #expect(one.contexts == two.contexts)
        #expect(one.contexts != other.contexts)
        #expect(Set(one.contexts.compactMap(\.targetingKey)).count == 500)
        // Each tested value, and one that matches none.
        #expect(Set(one.contexts.compactMap { $0["plan"] }).count == 3)
    }
}
