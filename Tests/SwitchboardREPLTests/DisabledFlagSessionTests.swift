import Foundation
import Switchboard
import SwitchboardREPL
import SwitchboardTestSupport
import Testing

/// The REPL shows a disabled flag as "disabled" with what a caller gets (its own default), in `get`, `list` and
/// after a `reset` that leaves it disabled again.
struct DisabledFlagSessionTests {
    let project = TestProject(definitions: """
        namespace: search
        flags:
          spellcheck:
            type: bool
            default: true
            enabled: false
        """)

    @Test func getAndListSayDisabled() throws {
        let session = try project.session()
        #expect(session.execute("get search.spellcheck")
            == .init(output: "search.spellcheck = (disabled: callers get their own default)\n"))
        let list = session.execute("list").output
        #expect(list.contains("(caller's default)") && list.contains("disabled"))
        #expect(!list.contains("error"))
    }

    @Test func resettingItsOverrideSaysItIsDisabledAgain() throws {
        let session = try project.session()
        #expect(session.execute("set search.spellcheck false").output.hasPrefix("search.spellcheck = false"))
        #expect(session.execute("reset search.spellcheck")
            == .init(output: "search.spellcheck = (disabled: callers get their own default)\n"))
        #expect(session.execute("reset search.spellcheck")
            == .init(output: "search.spellcheck has no runtime override; disabled: callers get their own default\n"))
    }
}
