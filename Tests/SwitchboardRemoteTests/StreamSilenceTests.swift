import InMemoryLogging
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// An event stream that stays open but says nothing (no event, no heartbeat) for longer than
/// `RemoteConfiguration.streamSilenceTimeout` is taken for dead: closed, opened again, and the values refetched,
/// so a change it never announced still arrives.
@Suite struct StreamSilenceTests {
    @Test func aSilentStreamIsReopenedAndTheValuesRefetched() async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        server.advertiseEvents(true)
        // Headers and a comment, then silence: the stream looks open and never speaks again.
        server.stream(with: .open)
        var configuration = try testConfiguration(server.url, poll: nil)
        configuration.streamSilenceTimeout = .seconds(1)
        let logs = InMemoryLogHandler()
        let remote = RemoteBoard(configuration, logger: recordingLogger(logs))
        // The first fetch, the stream, and the fetch the board makes on connecting (which would otherwise pick up
        // the change below): after these, nothing fetches but a reopened stream.
        try await waitUntil("live and following the stream") {
            remote.status == .live && server.streams >= 1 && server.fetches >= 2
        }
        #expect(remote.int("limit", default: 0) == 5)

        // A change the silent stream never announces: only the refetch after reopening it brings it.
        server.serve(["limit": 6])
        try await waitUntil("refetched after the silence") { remote.int("limit", default: 0) == 6 }
        // The refetch may come before the stream is open again (on a loaded machine, well before): wait for both.
        try await waitUntil("the stream reopened") { server.streams >= 2 }
        #expect(logs.entries.contains {
            "\($0.message)".contains("event stream: nothing received for 1.0 seconds; reconnecting")
        })
        await remote.stop()
        server.stop()
    }

    @Test func theDefaultIsThreeOfTheServersHeartbeatsAndNilTurnsItOff() throws {
        #expect(try RemoteConfiguration(baseURL: "http://127.0.0.1:1", environment: [:]).streamSilenceTimeout
            == .seconds(45))
        let off = try RemoteConfiguration(baseURL: "http://127.0.0.1:1", streamSilenceTimeout: nil, environment: [:])
        #expect(off.streamSilenceTimeout == nil)
    }
}
