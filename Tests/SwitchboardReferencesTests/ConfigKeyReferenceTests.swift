import SwitchboardReferences
import Testing

/// `forKey:` of reads through a swift-configuration `ConfigReader`; a scoped reader's keys are dynamic.
struct ConfigKeyReferenceTests {
    @Test func readsThroughAReaderAreConfigReferences() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Config.swift", "Sources/Shop/Reader.swift"])
        #expect(result.lines == [
            "Sources/Shop/Config.swift:8:32 config shop.max_items",
            "Sources/Shop/Config.swift:9:47 config shop.discount",
            "Sources/Shop/Reader.swift:5:34 config shop.support",
        ])
        // The scoped reader's key; UserDefaults' forKey: is nothing.
        #expect(result.dynamicLines == ["Sources/Shop/Config.swift:11:33"])
    }

    @Test func aReaderDeclaredInAnotherFileCounts() {
        let result = ShopFixture.scanner.scan(sources: [
            (file: "A.swift", text: "struct S { var settings: ConfigReader }"),
            (file: "B.swift", text: "extension S { func f() { _ = settings.int(forKey: \"shop.max_items\") } }"),
        ])
        #expect(result.lines == ["B.swift:1:51 config shop.max_items"])
    }

    @Test func forKeyOnAnythingElseIsNotAReference() {
        let result = scan("let d = UserDefaults.standard\n_ = d.bool(forKey: \"shop.new_flow\")")
        #expect(result.references.isEmpty)
        #expect(result.dynamic.isEmpty)
    }
}
