import Testing
@testable import SwitchboardCodegen

/// The naming rules, as a table.
struct SwiftNameTests {
    @Test(arguments: [
        ("new_flow", "newFlow", "NewFlow"),
        ("max_mb", "maxMb", "MaxMb"),
        ("last-7-days", "last7Days", "Last7Days"),
        ("checkout", "checkout", "Checkout"),
        ("__leading__and__trailing__", "leadingAndTrailing", "LeadingAndTrailing"),
        ("3d_mode", "_3dMode", "_3dMode"),
        ("2024", "_2024", "_2024"),
        ("default", "`default`", "Default"),
        ("class", "`class`", "Class"),
        ("self", "`self`", "`Self`"),
        ("init", "`init`", "Init"),
        ("any", "any", "`Any`"),
        ("type", "type", "Type_"),
        ("protocol", "`protocol`", "Protocol_"),
        ("myBoolFlag", "myBoolFlag", "MyBoolFlag"),
        ("HTTP_TIMEOUT", "httpTimeout", "HttpTimeout"),
        ("new welcome/banner", "newWelcomeBanner", "NewWelcomeBanner"),
    ])
    func segments(segment: String, member: String, type: String) {
        #expect(SwiftName.member(forSegment: segment) == member)
        #expect(SwiftName.type(forSegment: segment) == type)
    }

    @Test(arguments: ["_", "-", "_-_", "café"])
    func segmentsWithoutLettersOrDigitsHaveNoName(segment: String) {
        #expect(SwiftName.member(forSegment: segment) == nil)
        #expect(SwiftName.type(forSegment: segment) == nil)
    }

    @Test(arguments: [
        ("newest_first", "newestFirst"),
        ("GET", "get"),
        ("en-US", "enUs"),
        ("GET_ALL", "getAll"),
        ("iOS", "iOS"),
        ("Dark Mode", "darkMode"),
        ("#ffeb3b", "ffeb3b"),
        ("2fa", "_2fa"),
        ("default", "`default`"),
        ("self", "`self`"),
    ])
    func values(value: String, caseName: String) {
        #expect(SwiftName.enumCase(forValue: value) == caseName)
    }

    @Test(arguments: ["", "---", "café", "日本"])
    func valuesWithoutASCIINamesHaveNoCase(value: String) {
        #expect(SwiftName.enumCase(forValue: value) == nil)
    }

    @Test(arguments: [
        ("`default`", "default"), ("`self`", "`self`"), ("`init`", "`init`"), ("`Self`", "`Self`"),
        ("newFlow", "newFlow"),
    ])
    func namesAfterADot(name: String, written: String) {
        #expect(SwiftName.afterDot(name) == written)
    }
}
