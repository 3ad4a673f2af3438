import SwitchboardReferences
import Testing

/// `FlagKey("key", default: …)` in any spelling of the type.
struct FlagKeyReferenceTests {
    @Test func flagKeysAreFoundAtTheirKeyLiteral() throws {
        let result = try ShopFixture.scan(["Sources/Shop/FlagKeys.swift"])
        #expect(result.lines == [
            "Sources/Shop/FlagKeys.swift:3:23 flagkey shop.new_flow",
            "Sources/Shop/FlagKeys.swift:4:34 flagkey shop.sections",
            "Sources/Shop/FlagKeys.swift:5:36 flagkey shop.discont",
        ])
    }

    @Test func aLabeledOrMissingKeyIsNotAFlagKey() {
        #expect(scan("_ = FlagKey(key: \"shop.new_flow\")\n_ = FlagKey()").references.isEmpty)
    }
}
