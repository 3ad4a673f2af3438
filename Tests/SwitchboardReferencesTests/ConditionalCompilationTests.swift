import SwitchboardReferences
import Testing

/// Code in every `#if` clause counts, whatever the build's conditions.
struct ConditionalCompilationTests {
    @Test func everyClauseOfAnIfConfigIsRead() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Platform.swift"])
        #expect(result.lines == [
            "Sources/Shop/Platform.swift:5:20 string shop.new_flow",
            "Sources/Shop/Platform.swift:7:21 typed shop.ratio",
            "Sources/Shop/Platform.swift:9:17 flagkey shop.max_items",
        ])
    }
}
