import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// Changing the context refetches, and the answer is the new context's.
@Suite struct ContextSwitchTests {
    let project = TestProject(fixture: "flags")

    @Test func switchingTheContextRefetches() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, context: EvaluationContext(targetingKey: "anon"),
                                                       poll: nil))
        try await waitUntil("live") { remote.status == .live }
        #expect(remote.bool("app.beta", default: true) == false)

        let pro = EvaluationContext(targetingKey: "u-1", attributes: ["plan": "pro"])
        remote.setContext(pro)
        #expect(remote.context == pro)
        try await waitUntil("the pro user's answer") { remote.bool("app.beta", default: false) == true }
        #expect(remote.details("app.beta", default: false).reason == .targetingMatch)
        #expect(remote.details("app.beta", default: false, context: pro).value == true)
        // Another context than the board's is refused rather than answered wrongly.
        let other = remote.details("app.beta", default: false, context: EvaluationContext(targetingKey: "x"))
        #expect(other.errorCode == .invalidContext)

        remote.setContext(EvaluationContext(targetingKey: "anon"))
        try await waitUntil("back to the anonymous answer") { remote.bool("app.beta", default: true) == false }
        await remote.stop()
        await server.stop()
    }
}
