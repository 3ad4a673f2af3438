import Foundation
import Testing

@testable import Switchboard
import SwitchboardTestSupport

/// Typed lookups with a context take a shorter path than `details` and `resolve`: `Snapshot.value(at:context:)`
/// evaluates by position and builds no `Resolution`. It must give exactly the resolution's value, for readable
/// rules, rollouts, prerequisites, kill switches, JSONLogic blocks and every flag of flagd's own test files.
struct TypedLookupPathTests {
    static let contexts: [EvaluationContext] = {
        var contexts: [EvaluationContext] = [.empty]
        let attributeSets: [[String: Value]] = [
            [:],
            ["email": "someone@example.com", "country": "XX", "plan": "pro", "device": "tablet"],
            ["email": "a@elsewhere.org", "plan": "pro", "agent": "Mobile Safari", "locale": "de-AT"],
            ["version": "2.3.1", "age": 20, "signup": "2026-07-01", "beta": true, "tags": ["vip"], "region": "us"],
            ["country": "US", "color": "yellow", "fruit": "apple", "id": 42, "time": 1_000, "version": "1.0.0"],
            ["email": "ballmer@macrosoft.com", "locale": "us", "is-it-bob": "bob", "flavor": "mint", "user": ["id": 1]],
        ]
        for (index, attributes) in attributeSets.enumerated() {
            for key in [nil, "user-\(index)", "jon@company.com"] {
                contexts.append(EvaluationContext(targetingKey: key, attributes: attributes))
            }
        }
        return contexts
    }()

    @Test("the typed path gives the resolution's value for every definition and context")
    func sameAsResolution() throws {
        let project = makeProject(definitions: TargetingRulesTests.definitions)
        let testbed = FlagdConformanceTests.testbed.appendingPathComponent("flags")
        // flagd's main test file, and the ones for disabled project.flags, edge cases and shared evaluators (the others repeat
        // its keys, which one directory cannot hold twice).
        for name in ["testing-flags.json", "disabled-flags.json", "edge-case-flags.json", "evaluator-refs.json"] {
            let text = try String(contentsOf: testbed.appendingPathComponent(name), encoding: .utf8)
            project.write("flags/testbed/\(name.dropLast(5)).flagd.json", text)
        }
        let board = try Board(inputs: BoardInputs(directory: project.flags, environment: [:]),
                              options: BoardOptions(pollInterval: nil))
        let snapshot = board.snapshot
        #expect(snapshot.registry.count > 40)
        var dynamic = 0
        for position in snapshot.entries.indices {
            if snapshot.entries[position].isDynamic { dynamic += 1 }
            for context in Self.contexts {
                let expected = snapshot.evaluate(position, context: context).resolution.value
                #expect(snapshot.value(at: position, context: context) == expected,
                        "\(snapshot.registry.definitions[position].key) with \(context)")
            }
        }
        #expect(dynamic > 20)
    }
}
