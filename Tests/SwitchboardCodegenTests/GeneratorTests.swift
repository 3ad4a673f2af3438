import Foundation
import Switchboard
import SwitchboardCodegen
import Testing
import SwitchboardTestSupport

/// Layout, types, defaults, deprecation and determinism of the generated source.
struct GeneratorTests {
    @Test func generatingTwiceGivesTheSameBytes() {
        let report = loadDefinitions("flags")
        let generator = AccessorGenerator(access: .public, today: goldenToday)
        #expect(generator.generate(report.registry) == generator.generate(report.registry))
    }

    @Test func everyTypeHasItsSwiftType() {
        let source = generate(yaml: """
            preferences:
              on: { type: bool, default: true }
              count: { type: int, default: -3 }
              ratio: { type: double, default: 2 }
              name: { type: string, default: "a \\"b\\"" }
              items: { type: list, default: [1, 2.5, x, null, [true]] }
              table: { type: object, default: { b: 1, a: { c: [] } } }
              free: { type: string, default: any }
            flags:
              size: { type: int, variants: { s: 1, l: 9 }, default: l }
              steps: { type: list, variants: { one: [1], two: [1, 2] }, default: two }
            """).source
        let expected = [
            "static let on = FlagKey<Bool>(\"on\", default: true)",
            "static let count = FlagKey<Int>(\"count\", default: -3)",
            "static let ratio = FlagKey<Double>(\"ratio\", default: 2.0)",
            "static let name = FlagKey<String>(\"name\", default: \"a \\\"b\\\"\")",
            "static let items = FlagKey<[Value]>(\"items\", default: [1, 2.5, \"x\", .null, [true]])",
            "static let table = FlagKey<[String: Value]>(\"table\", default: [\"a\": [\"c\": []], \"b\": 1])",
            "static let free = FlagKey<String>(\"free\", default: \"any\")",
            "static let size = FlagKey<Int>(\"size\", default: 9)",
            "static let steps = FlagKey<[Value]>(\"steps\", default: [1, 2])",
        ]
        for line in expected { #expect(source.contains(line), "missing: \(line)") }
    }

    @Test func valuesAndVariantsBecomeEnums() {
        let source = generate(yaml: """
            preferences:
              history.sort_order: { type: string, values: [newest_first, oldest_first], default: oldest_first }
            flags:
              button_color: { type: string, variants: { control: blue, treatment: green }, default: treatment }
            """).source
        #expect(source.contains("""
                    static let sortOrder = FlagKey<SortOrder>("history.sort_order", default: .oldestFirst)

                    /// The values of ``sortOrder``.
                    enum SortOrder: String, CaseIterable, FlagValue {
                        case newestFirst = "newest_first"
                        case oldestFirst = "oldest_first"
                    }
            """))
        #expect(source.contains("""
                static let buttonColor = FlagKey<ButtonColor>("button_color", default: .treatment)

                /// The variants of ``buttonColor``: each case is a variant's name, its raw value the variant's value.
                enum ButtonColor: String, CaseIterable, FlagValue {
                    case control = "blue"
                    case treatment = "green"
                }
            """))
    }

    @Test func publicAccessMarksEveryDeclaration() {
        let source = generate(yaml: """
            namespace: app
            preferences:
              theme: { type: string, values: [light, dark], default: light }
            """, access: .public).source
        #expect(source.contains("\npublic import Switchboard\n"))
        #expect(source.contains("\npublic enum Prefs {\n"))
        #expect(source.contains("\n    public enum App {\n"))
        #expect(source.contains("\n        public static let theme = FlagKey<Theme>(\"app.theme\", default: .light)"))
        #expect(source.contains("\n        public enum Theme: String, CaseIterable, FlagValue {\n"))
        #expect(!source.contains("enum Flags"))
    }

    @Test func emptyRegistryStillCompiles() {
        let source = AccessorGenerator(access: .public, today: goldenToday).generate(.empty).source
        #expect(source.hasSuffix("\n\nimport Switchboard\n"))
    }

    @Test func descriptionAndFactsAreDocComments() {
        let source = generate(yaml: """
            namespace: checkout
            flags:
              express_pay:
                description: |
                  One-tap payment.
                  Needs a saved card.
                owner: payments
                type: bool
                default: true
                renamed_from: [checkout.quick_pay]
                expires: 2027-06-30
            preferences:
              upload.max_mb: { type: int, default: 25, min: 1, max: 500 }
            """).source
        #expect(source.contains("""
                    /// One-tap payment.
                    /// Needs a saved card.
                    ///
                    /// Key `checkout.express_pay`, owned by payments, expires 2027-06-30. Renamed from \
            `checkout.quick_pay`.
                    static let expressPay
            """))
        #expect(source.contains("            /// Key `checkout.upload.max_mb`. Range: 1 to 500.\n"))
    }

    @Test(arguments: [
        ("2026-03-31", false), ("2026-04-01", false), ("2026-04-02", true),
    ])
    func flagsPastExpiryAreDeprecated(today: String, deprecated: Bool) throws {
        let day = try #require(Day(today))
        let source = generate(yaml: """
            namespace: checkout
            flags:
              legacy_banner: { type: bool, default: true, expires: 2026-04-01 }
            """, today: day).source
        let attribute = """
                    @available(*, deprecated, message: "flag checkout.legacy_banner expired on 2026-04-01")
                    static let legacyBanner
            """
        #expect(source.contains(attribute) == deprecated)
        #expect(source.contains(deprecated ? "expired on 2026-04-01." : "expires 2026-04-01."))
    }

    @Test func linesStayUnderTheLimit() {
        let report = loadDefinitions("flags")
        let source = AccessorGenerator(access: .public, today: goldenToday).generate(report.registry).source
        for line in source.split(separator: "\n") {
            #expect(line.count < 120, "\(line)")
        }
        #expect(!source.contains("\t"))
        #expect(!source.contains(" \n"))
    }

    /// flagd flag files load as definitions too: their keys may be in any case, and a flag may have no default
    /// variant, which leaves the default to the caller (the key's own, the type's zero value).
    @Test func flagdFlagsGetKeys() throws {
        let json = """
            {"flags": {
              "new-welcome-banner": {"state": "ENABLED", "variants": {"on": true, "off": false},
                                     "defaultVariant": "off"},
              "headerColor": {"state": "ENABLED", "variants": {"red": "#FF0000", "blue": "#0000FF"},
                              "defaultVariant": "red"},
              "pageSize": {"state": "ENABLED", "variants": {"small": 10, "large": 50}}
            }}
            """
        let report = DefinitionLoader.load(sources: [(path: "flags/web.flagd.json", bytes: Array(json.utf8))])
        try #require(!report.hasErrors, "\(report.diagnostics)")
        let source = AccessorGenerator(today: goldenToday).generate(report.registry).source
        let expected = [
            "static let newWelcomeBanner = FlagKey<Bool>(\"new-welcome-banner\", default: false)",
            "static let headerColor = FlagKey<HeaderColor>(\"headerColor\", default: .red)",
            "        case red = \"#FF0000\"\n",
            "static let pageSize = FlagKey<Int>(\"pageSize\", default: 0)",
            "Variants: `large` (`50`), `small` (`10`). No default variant: the key's own default applies.",
        ]
        for line in expected { #expect(source.contains(line), "missing: \(line)") }
    }

    @Test func longLiteralsBreakOnePerLine() {
        let source = generate(yaml: """
            preferences:
              sections:
                type: list
                default: [recent, favorites, suggestions, trending, nearby, friends, history, saved, later, archive]
            """).source
        #expect(source.contains("""
                static let sections = FlagKey<[Value]>(
                    "sections",
                    default: [
                        "recent",
                        "favorites",
            """))
        #expect(source.contains("""
                        "archive",
                    ]
                )
            """))
    }
}
