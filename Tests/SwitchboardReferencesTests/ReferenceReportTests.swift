import Switchboard
import SwitchboardReferences
import Testing

/// The report over the whole fixture package: definitions with their references, undefined keys with a
/// suggestion, dynamic keys, and the definitions nothing references.
struct ReferenceReportTests {
    static func report() throws -> ReferenceReport {
        ReferenceReport(registry: ShopFixture.registry, scan: try ShopFixture.scan(ShopFixture.allFiles))
    }

    @Test func undefinedKeysGetTheNearestDefinedKey() throws {
        let undefined = try Self.report().undefined.map { "\($0.reference.key) \($0.suggestion ?? "-")" }
        #expect(undefined == [
            "shop.discont shop.discount", "shop.new_flwo shop.new_flow", "inventory.count -", "app.ratio shop.ratio",
        ])
    }

    @Test func unreferencedDefinitionsAreListedUnlessAllowed() throws {
        var report = try Self.report()
        #expect(report.unreferenced == ["shop.legacy_banner", "shop.partner_only"])
        report.definitions[report.definitions.firstIndex { $0.key == "shop.partner_only" }!].isAllowedUnreferenced
            = true
        #expect(report.unreferenced == ["shop.legacy_banner"])
    }

    @Test func definitionsKeepDeclarationOrderAndTestsCount() throws {
        let report = try Self.report()
        #expect(report.definitions.map(\.key) == ShopFixture.registry.keys)
        let newFlow = report.definitions[0].references.map(\.position.description)
        #expect(newFlow.last == "Tests/ShopTests/ShopTests.swift:5:13")
        #expect(newFlow.count == 6)
    }

    @Test func aRenamedKeySuggestsItsNewName() {
        let report = DefinitionLoader.load(sources: [(path: "flags/a.yaml", bytes: Array("""
            flags:
              pay.express: {type: bool, default: false, renamed_from: [pay.quick]}
            """.utf8))])
        let scanner = ReferenceScanner(registry: report.registry)
        let scan = scanner.scan(sources: [(file: "A.swift", text: "_ = b.bool(\"pay.quick\")")])
        let result = ReferenceReport(registry: report.registry, scan: scan)
        #expect(result.undefined.map(\.suggestion) == ["pay.express"])
    }
}
