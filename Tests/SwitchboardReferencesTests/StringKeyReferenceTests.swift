import SwitchboardReferences
import Testing

/// String literals passed as the key of the library's lookups and writes, on any receiver that is a value.
struct StringKeyReferenceTests {
    @Test func stringKeysOfLookupsAndWritesAreFound() throws {
        let result = try ShopFixture.scan(["Sources/Shop/Strings.swift"])
        #expect(result.lines == [
            "Sources/Shop/Strings.swift:4:20 string shop.new_flow",
            "Sources/Shop/Strings.swift:5:23 string shop.max_items",
            "Sources/Shop/Strings.swift:6:23 string shop.discount",
            "Sources/Shop/Strings.swift:7:19 string shop.banner_color",
            "Sources/Shop/Strings.swift:8:21 string shop.banner_color",
            "Sources/Shop/Strings.swift:9:45 string shop.sections",
            "Sources/Shop/Strings.swift:10:51 string shop.limits",
            "Sources/Shop/Strings.swift:11:22 string shop.new_flwo",
            "Sources/Shop/Strings.swift:12:19 string inventory.count",
            "Sources/Shop/Strings.swift:13:22 string app.ratio",
        ])
    }

    @Test(arguments: StringKeyVisitorNames.all)
    func everyLookupAndWriteNameTakesAKey(name: String) {
        let call = name == "updates" || name == "detailedUpdates" ? "x.\(name)(of: \"a.b\")" : "x.\(name)(\"a.b\")"
        let column = call.firstIndex(of: "\"")!.utf16Offset(in: call) + 1
        #expect(scan(call).lines == ["Test.swift:1:\(column) string a.b"])
    }

    @Test func enumCasesAndOtherMethodsAreNotReads() {
        let result = scan("""
            let a = Value.string("shop.theme")
            let b: Value = .bool(true)
            let c = x.fetch("shop.theme")
            let d = x.bool(forKey: "shop.theme")
            let e = x.updates("shop.theme")
            """)
        #expect(result.references.isEmpty)
        #expect(result.dynamic.isEmpty)
    }
}

/// The method names the string-key visitor knows, as the issue lists them.
enum StringKeyVisitorNames {
    static let all = [
        "bool", "int", "double", "string", "list", "object", "value", "details", "resolve", "explain", "observe",
        "set", "reset", "updates", "detailedUpdates",
    ]
}
