import Switchboard
import SwitchboardCodegen
import SwitchboardReferences
import SwitchboardTestSupport
import Testing

/// Generated typed keys are found wherever they appear, by the names the generator gives them.
struct TypedKeyReferenceTests {
    @Test func everyUseOfATypedKeyIsFoundAtTheStartOfItsExpression() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Typed.swift"])
        #expect(result.lines == [
            "Sources/Shop/Typed.swift:4:20 typed shop.new_flow",
            "Sources/Shop/Typed.swift:5:27 typed shop.max_items",
            "Sources/Shop/Typed.swift:5:61 typed shop.discount",
            "Sources/Shop/Typed.swift:7:53 typed shop.banner_color",
            "Sources/Shop/Typed.swift:8:15 typed shop.sections",
            "Sources/Shop/Typed.swift:9:43 typed shop.limits",
            "Sources/Shop/Typed.swift:10:9 typed shop.new_flow",
            "Sources/Shop/Typed.swift:14:17 typed shop.theme",
            "Sources/Shop/Typed.swift:15:17 typed shop.upload.max_mb",
            "Sources/Shop/Typed.swift:16:17 typed shop.ratio",
            "Sources/Shop/Typed.swift:16:35 typed shop.tags",
            "Sources/Shop/Typed.swift:17:19 typed shop.support",
            "Sources/Shop/Typed.swift:18:29 typed shop.title",
        ])
        #expect(result.dynamic.isEmpty)
    }

    /// Every key the generator declares, of every type, flags and preferences, is recognised by its path.
    @Test func everyGeneratedKeyIsRecognised() {
        let paths = AccessorGenerator.typedKeyPaths(ShopFixture.registry)
        #expect(Set(paths.values) == Set(ShopFixture.registry.keys))
        let ordered = paths.keys.sorted()
        let source = ordered.map { "_ = \($0)" }.joined(separator: "\n")
        let result = scan(source)
        #expect(result.references.map(\.key) == ordered.map { paths[$0]! })
        #expect(result.references.allSatisfy { $0.form == .typed && $0.position.column == 5 })
    }

    @Test func valueEnumsAndScopesAreNotKeys() {
        let result = scan("""
            let a: Prefs.Shop.Theme = .dark
            let b = Prefs.Shop.Theme.dark
            let c = Flags.Shop.BannerColor.control
            let d = Flags.Shop.self
            let e = Flags.Shop.unknownKey
            """)
        #expect(result.references.isEmpty)
    }

    @Test func aKeyNamedAfterAKeywordIsMatchedWithOrWithoutBackticks() throws {
        let report = DefinitionLoader.load(sources: [(path: "flags/k.yaml", bytes: Array("""
            flags:
              ui.default: {type: bool, default: false}
            """.utf8))])
        let scanner = ReferenceScanner(registry: report.registry)
        let result = scanner.scan(sources: [(file: "K.swift", text: "_ = Flags.Ui.default\n_ = Flags.Ui.`default`")])
        #expect(result.references.map(\.key) == ["ui.default", "ui.default"])
    }

    /// The fixture's committed generated file is what the generator writes today, and a scan skips it: it
    /// declares the keys (with `FlagKey` literals) rather than reading them.
    @Test func theGeneratedFileIsTheGeneratorsOutputAndIsSkipped() throws {
        let text = try ShopFixture.fixtures.text("Shop/Sources/Shop/SwitchboardKeys.swift")
        let loaded = DefinitionLoader.load(sources: [
            (path: "flags/shop.yaml", bytes: try ShopFixture.fixtures.bytes("Shop/flags/shop.yaml")),
        ])
        let generated = AccessorGenerator(today: Day(year: 2026, month: 6, day: 1)).generate(loaded.registry)
        #expect(generated.source == text)
        #expect(try ShopFixture.scan(["Sources/Shop/SwitchboardKeys.swift"]).references.isEmpty)
    }
}
