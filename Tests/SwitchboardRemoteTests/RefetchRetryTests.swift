import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A refetch the event stream asked for is retried until the server answers: the event is not sent again, so a
/// refetch that fails once (a timeout on a loaded machine, a 503, a 429) must not lose the change.
@Suite struct RefetchRetryTests {
    @Test(arguments: [
        [ScriptedTransport.Failure.thrown],
        [.status(503), .thrown, .status(500)],
        [.status(429)],
    ])
    func aFailedRefetchIsRetriedUntilTheChangeArrives(failures: [ScriptedTransport.Failure]) async throws {
        let transport = ScriptedTransport()
        // No polling, so only the stream's refetch (and its retries) can bring the change; and no silence timeout, so
        // a machine paused for a minute does not reopen the stream (whose reconnection would refetch too).
        var configuration = try testConfiguration("http://scripted.invalid", poll: nil)
        configuration.streamSilenceTimeout = nil
        let remote = RemoteBoard(configuration, transport: transport)
        try await waitUntil("following the stream") { transport.streams == 1 && transport.fetches >= 2 }
        #expect(remote.int("a", default: 0) == 1)
        transport.change(to: 2, failingFirst: failures)
        transport.emitRefetch()
        try await waitUntil("the change after \(failures.count) failed refetches") { remote.int("a", default: 0) == 2 }
        // The first fetch, the one after the stream connected, the event's, and one retry per failure.
        #expect(transport.fetches == 3 + failures.count)
        #expect(transport.streams == 1, "the stream stayed open")
        await remote.stop()
    }
}
