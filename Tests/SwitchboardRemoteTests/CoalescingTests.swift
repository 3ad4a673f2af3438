import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A burst of change events makes one or two refetches, not one each; an inactive app closes the stream.
@Suite struct CoalescingTests {
    @Test func aBurstOfEventsIsCoalesced() async throws {
        let transport = ScriptedTransport(fetchDelay: .milliseconds(30))
        let remote = RemoteBoard(try testConfiguration("http://scripted.invalid", poll: nil), transport: transport)
        try await waitUntil("following the stream") { transport.streams == 1 && transport.fetches >= 2 }
        try await Task.sleep(for: .milliseconds(100))
        let before = transport.fetches
        transport.emit(String(repeating: ScriptedTransport.refetchEvent, count: 50))
        try await waitUntil("refetched") { transport.fetches > before }
        try await Task.sleep(for: .milliseconds(300))
        #expect(transport.fetches - before <= 2, "50 events, \(transport.fetches - before) fetches")
        #expect(remote.int("a", default: 0) == 1)
        await remote.stop()
    }

    @Test func anInactiveAppClosesTheStreamAndRefetchesWhenActiveAgain() async throws {
        let transport = ScriptedTransport()
        var configuration = try testConfiguration("http://scripted.invalid", poll: nil)
        configuration.inactivityDelay = .milliseconds(50)
        let remote = RemoteBoard(configuration, transport: transport)
        try await waitUntil("following the stream") { transport.streams == 1 }
        remote.setActive(false)
        try await waitUntil("the stream closed") { transport.closed }
        let before = transport.fetches
        remote.setActive(true)
        try await waitUntil("reconnected") { transport.streams == 2 }
        #expect(transport.fetches > before)
        await remote.stop()
    }
}
