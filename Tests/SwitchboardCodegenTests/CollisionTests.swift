import Switchboard
import SwitchboardCodegen
import Testing

/// Keys that cannot become distinct Swift names are errors at `file:line:column`; values that cannot become enum
/// cases type their key `String` with a warning; generated enums that hide a library type make the generator
/// qualify it.
struct CollisionTests {
    /// Each case: definitions, then every diagnostic as rendered.
    @Test(arguments: [
        (
            """
            flags:
              new_flow: { type: bool, default: false }
              new__flow: { type: bool, default: true }
            """,
            """
            flags/test.yaml:3:3: error: new__flow would be Flags.newFlow in Swift, which is already new_flow \
            (flags/test.yaml:2:3)
              hint: rename one of them: Swift names keep only letters and digits, capitalizing each word
            """
        ),
        (
            """
            namespace: app
            preferences:
              upload_limit.max: { type: int, default: 1 }
              upload__limit.min: { type: int, default: 0 }
            """,
            """
            flags/test.yaml:4:3: error: app.upload__limit.min would be Prefs.App.UploadLimit in Swift, which is \
            already the enum for app.upload_limit.*, first used by app.upload_limit.max (flags/test.yaml:3:3)
              hint: rename one of them: Swift names keep only letters and digits, capitalizing each word
            """
        ),
        (
            """
            flags:
              release.2024: { type: bool, default: false }
              release.2024.beta: { type: bool, default: false }
            """,
            """
            flags/test.yaml:2:3: error: release.2024 would be Flags.Release._2024 in Swift, which is already the \
            enum for release.2024.*, first used by release.2024.beta (flags/test.yaml:3:3)
              hint: rename one of them: Swift names keep only letters and digits, capitalizing each word
            """
        ),
        (
            """
            flags:
              beta._: { type: bool, default: false }
            """,
            """
            flags/test.yaml:2:3: error: the segment '_' of beta._ cannot become a Swift name
              hint: Swift names are made from a segment's ASCII letters and digits; rename the key
            """
        ),
        (
            """
            flags:
              switchboard.value.items: { type: list, default: [] }
            """,
            """
            flags/test.yaml:2:3: error: the enums generated around switchboard.value.items hide both Value and \
            Switchboard, so its key cannot name its type
              hint: rename the key segments that become Value or Switchboard
            """
        ),
        (
            """
            preferences:
              colour: { type: string, values: [red, Red], default: red }
              sort: { type: string, values: [all_cases, name], default: name }
              lang: { type: string, values: [français, english], default: english }
              theme: { type: string, values: [light, dark], default: light }
              theme.contrast: { type: double, default: 1 }
            flags:
              button: { type: string, variants: { a: blue, b: blue }, default: a }
            """,
            """
            flags/test.yaml:2:3: warning: colour is typed String: the values "red" and "Red" both become the case red
              hint: rename one of them to get an enum
            flags/test.yaml:3:3: warning: sort is typed String: the value "all_cases" would be the case allCases, \
            which Swift's CaseIterable or Switchboard's FlagValue already declares
              hint: rename the value to get an enum
            flags/test.yaml:4:3: warning: lang is typed String: the value "français" has no Swift case name
              hint: enum cases are made from ASCII letters and digits
            flags/test.yaml:5:3: warning: theme is typed String: its enum would be Prefs.Theme, which is the enum \
            for theme.*, first used by theme.contrast (flags/test.yaml:6:3)
              hint: rename one of the keys to get an enum of its values
            flags/test.yaml:8:3: warning: button is typed String: two variants have the same value, so a case \
            cannot tell them apart
              hint: give each variant its own value to get an enum
            """
        ),
    ])
    func diagnostics(yaml: String, expected: String) throws {
        let report = loadDefinitions(yaml: yaml)
        try #require(report.errors.isEmpty, "\(report.errors)")
        let generated = AccessorGenerator().generate(report.registry)
        #expect(generated.diagnostics.map(\.description).joined(separator: "\n") == expected)
    }

    @Test func collidingDefinitionsAreLeftOutAndTheRestIsGenerated() {
        let generated = generate(yaml: """
            flags:
              new_flow: { type: bool, default: false }
              new__flow: { type: bool, default: true }
              other: { type: int, default: 2 }
            """)
        #expect(generated.hasErrors)
        #expect(generated.source.contains("static let newFlow = FlagKey<Bool>(\"new_flow\", default: false)"))
        #expect(!generated.source.contains("\"new__flow\""))
        #expect(generated.source.contains("static let other = FlagKey<Int>(\"other\", default: 2)"))
    }

    @Test func typesHiddenByGeneratedEnumsAreQualified() {
        let source = generate(yaml: """
            namespace: pricing
            preferences:
              value.max: { type: int, default: 10 }
              string.label: { type: string, default: x }
              tiers: { type: list, default: [] }
              table: { type: object, default: {} }
              mode: { type: string, values: [fast, slow], default: fast }
            flags:
              plans: { type: list, default: [] }
            """).source
        #expect(source.contains("static let tiers = FlagKey<[Switchboard.Value]>(\"pricing.tiers\", default: [])"))
        #expect(source.contains(
            "static let table = FlagKey<[Swift.String: Switchboard.Value]>(\"pricing.table\", default: [:])"))
        #expect(source.contains("static let label = FlagKey<Swift.String>(\"pricing.string.label\", default: \"x\")"))
        #expect(source.contains("enum Mode: Swift.String, CaseIterable, FlagValue {"))
        // Flags.Pricing has no enum named Value, so its list stays plain.
        #expect(source.contains("static let plans = FlagKey<[Value]>(\"pricing.plans\", default: [])"))
    }
}
