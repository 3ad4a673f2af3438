import SwitchboardTerminal
import Testing
import SwitchboardREPL

struct GlobTests {
    @Test(arguments: [
        ("checkout.*", "checkout.new_flow", true),
        ("checkout.*", "app.checkout.x", false),
        ("*.max_*", "app.upload.max_mb", true),
        ("app.?", "app.a", true),
        ("app.?", "app.ab", false),
        ("*", "", true),
        ("a*b*c", "axxbyyc", true),
        ("a*b*c", "axxbyy", false),
        ("app.theme", "app.theme", true),
    ])
    func matches(pattern: String, text: String, expected: Bool) {
        #expect(Glob(pattern).matches(text) == expected)
    }

    @Test func knowsWhetherItHasWildcards() {
        #expect(Glob("app.*").hasWildcards)
        #expect(Glob("app.?").hasWildcards)
        #expect(!Glob("app.").hasWildcards)
    }
}
