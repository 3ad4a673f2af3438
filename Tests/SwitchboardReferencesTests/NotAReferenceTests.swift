import SwitchboardReferences
import Testing

/// Comments, documentation and string literals that only look like keys or reads are not references.
struct NotAReferenceTests {
    @Test func commentsAndOtherStringsAreNotReferences() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Comments.swift"])
        #expect(result.references.isEmpty)
        #expect(result.dynamic.isEmpty)
    }
}
