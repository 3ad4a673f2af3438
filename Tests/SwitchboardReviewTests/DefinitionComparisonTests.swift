import Foundation
import Switchboard
import SwitchboardReview
import Testing

/// Each field kind a change can touch is named, with what changed inside it.
@Suite struct DefinitionComparisonTests {
    static let base = """
        namespace: app
        flags:
          f:
            description: The flag.
            type: string
            variants: { control: blue, treatment: green }
            default: control
            owner: web
            tags: [a]
            expires: 2030-01-01
            rules:
              - name: staff
                when: [{ attribute: plan, equals: pro }]
                variant: treatment
              - when: [{ attribute: country, in: [de] }]
                variant: control
            rollout: [{ variant: control, weight: 10 }, { variant: treatment, weight: 90 }]
          gate:
            type: bool
            default: true
        preferences:
          limit:
            type: int
            default: 5
            min: 1
            max: 10

        """

    /// (what is edited, replaced text, replacement, the key, the fields, the details)
    static let cases: [(String, String, String, String, [String], [String])] = [
        ("type", "    type: int\n    default: 5\n", "    type: double\n    default: 5\n", "app.limit",
         ["type", "default"], ["type: int → double", "default: 5 → 5.0"]),
        ("default", "default: control", "default: treatment", "app.f", ["default"], ["default: control → treatment"]),
        ("variants", "treatment: green }", "treatment: red, holdout: grey }", "app.f", ["variants"],
         ["variants: added holdout; treatment green → red"]),
        ("constraints", "max: 10", "max: 8", "app.limit", ["constraints"], ["max: 10 → 8"]),
        ("rule conditions", "equals: pro", "equals: team", "app.f", ["rules"], ["rule 1 'staff': conditions changed"]),
        ("rule outcome", "variant: treatment\n      - when", "variant: control\n      - when", "app.f", ["rules"],
         ["rule 1 'staff': serves treatment → control"]),
        ("rule added", "    rollout:", "      - name: late\n        when: [{ attribute: plan, equals: free }]\n"
            + "        variant: control\n    rollout:", "app.f", ["rules"], ["rule 3 'late' added: serves control"]),
        ("rollout", "weight: 10 }, { variant: treatment, weight: 90", "weight: 50 }, { variant: treatment, weight: 50",
         "app.f", ["rollout"], ["rollout: control 10, treatment 90 → control 50, treatment 50"]),
        ("prerequisites", "    default: control\n",
         "    default: control\n    requires: { flag: app.gate, value: true }\n",
         "app.f", ["prerequisites"], ["prerequisites: added app.gate = true"]),
        ("enabled", "  gate:\n    type: bool\n", "  gate:\n    enabled: false\n    type: bool\n", "app.gate",
         ["enabled"], ["enabled: true → false"]),
        ("schedule", "  gate:\n    type: bool\n    default: true\n",
         "  gate:\n    type: bool\n    default: true\n    schedule: [{ at: 2030-06-01T10:00:00+01:00, serve: false }]\n",
         "app.gate", ["schedule"], ["schedule: added 2030-06-01 09:00 UTC serve false"]),
        ("expires", "2030-01-01", "2031-06-30", "app.f", ["expires"], ["expires: 2030-01-01 → 2031-06-30"]),
        ("owner", "owner: web", "owner: growth", "app.f", ["owner"], ["owner: web → growth"]),
        ("description", "The flag.", "The new flag.", "app.f", ["description"], ["description changed"]),
        ("tags", "tags: [a]", "tags: [a, b]", "app.f", ["tags"], ["tags: [a] → [a, b]"]),
    ]

    @Test(arguments: cases)
    func namesTheField(_ edit: (String, String, String, String, [String], [String])) throws {
        let (_, old, new, key, fields, details) = edit
        #expect(Self.base.contains(old))
        let result = try review(Self.base, Self.base.replacingOccurrences(of: old, with: new))
        #expect(result.changes.count == 1)
        let change = try #require(result.changes.first)
        #expect(change.key == key)
        #expect(change.change == .modified)
        #expect(change.fields == fields)
        #expect(change.details == details)
    }

    @Test func anOverrideFileValueIsTheOverrideField() throws {
        let result = try review(Self.base, Self.base, baseOverrides: "overrides: { app.limit: 3 }\n",
                                headOverrides: "overrides: { app.limit: 7 }\n")
        #expect(result.changes.map(\.key) == ["app.limit"])
        #expect(result.changes.first?.fields == ["override"])
        #expect(result.changes.first?.details == ["override: 3 → 7"])
    }

    @Test func unchangedDefinitionsAreNotListed() throws {
        #expect(try review(Self.base, Self.base).changes.isEmpty)
    }

    @Test func addedRemovedAndRenamedKeys() throws {
        let head = Self.base
            .replacingOccurrences(of: "  gate:\n    type: bool\n    default: true\n", with: "")
            .replacingOccurrences(of: "  limit:\n", with: "  max_items:\n    renamed_from: [app.limit]\n")
            + "  extra:\n    type: string\n    default: x\n"
        let result = try review(Self.base, head)
        #expect(result.changes.map { "\($0.key) \($0.change.rawValue)" }
                    == ["app.extra added", "app.gate removed", "app.max_items renamed"])
        #expect(result.changes.last?.renamedFrom == "app.limit")
        #expect(result.changes.last?.fields == [])
    }
}
