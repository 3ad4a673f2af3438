@testable import SwitchboardServer
import Testing

@Suite struct PathKeyTests {
    @Test(arguments: [
        ("app.new_flow", "app.new_flow"),
        ("my%20flag", "my flag"),
        ("a%2Fb", "a/b"),
        ("a%2fb", "a/b"),
        ("caf%C3%A9", "café"),
        ("100%", "100%"),
        ("bad%zzescape", "bad%zzescape"),
        ("%FF", "%FF"),
    ])
    func decodes(raw: String, key: String) {
        #expect(PathKey.decode(raw[...]) == key)
    }
}
