import SwitchboardReferences
import Testing

/// Keys built at run time are reported where they are built, never guessed.
struct DynamicKeyTests {
    @Test func interpolationsConcatenationsAndVariablesAreDynamic() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Dynamic.swift"])
        #expect(result.references.isEmpty)
        #expect(result.dynamicLines == [
            "Sources/Shop/Dynamic.swift:5:20",
            "Sources/Shop/Dynamic.swift:6:22",
            "Sources/Shop/Dynamic.swift:7:21",
            "Sources/Shop/Dynamic.swift:8:17",
            "Sources/Shop/Dynamic.swift:9:31",
            "Sources/Shop/Dynamic.swift:10:47",
        ])
    }

    /// String literals joined with `+` are known before run time: the key they spell, wherever it is read.
    @Test func literalsJoinedWithPlusAreTheKeyTheySpell() {
        let result = scan("""
            _ = board.bool("shop." + "new_flow")
            _ = board.int(("shop." + "max") + "_items", default: 1)
            _ = board.bool("shop." + name)
            _ = board.bool("shop." + "\\(name)")
            """)
        #expect(result.lines == ["Test.swift:1:16 string shop.new_flow", "Test.swift:2:15 string shop.max_items"])
        #expect(result.dynamicLines == ["Test.swift:3:16", "Test.swift:4:16"])
    }

    @Test func aTypedKeyOrANonKeyArgumentIsNotDynamic() {
        let result = scan("""
            _ = board.value(Flags.Shop.newFlow)
            store.set(5)
            store.set([1, 2])
            _ = board.value(FlagKey("shop.new_flow", default: false))
            """)
        #expect(result.dynamic.isEmpty)
        #expect(result.references.map(\.form) == [.typed, .flagkey])
    }
}
