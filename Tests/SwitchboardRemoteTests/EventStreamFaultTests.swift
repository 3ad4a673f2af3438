import InMemoryLogging
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// An event stream that fails midway: reset by the peer, or closed in the middle of an event. Either is a drop:
/// reported (a reset says so), the values stay, and the reconnection's refetch brings what changed meanwhile.
@Suite struct EventStreamFaultTests {
    @Test(arguments: [false, true])
    func aResetMidStreamIsReportedAndTheBoardCatchesUp(cached: Bool) async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        server.advertiseEvents(true)
        let cache = cached ? try await filledCache(for: server) : nil
        server.stream(with: .reset)
        let logs = InMemoryLogHandler()
        // No polling: only the stream and its reconnections fetch.
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache?.path, poll: nil),
                                 logger: recordingLogger(logs))
        let sampler = ValueSampler { remote.int("limit", default: 0) }
        try await waitUntil("live") { remote.status == .live }
        // The reset is reported as one; the next fetch, after reconnecting, clears lastError, so read the log.
        try await waitUntil("the reset logged") {
            logs.entries.contains { "\($0.message)".contains("event stream: connection reset by 127.0.0.1:") }
        }
        #expect(remote.int("limit", default: 0) == 5)

        server.serve(["limit": 6])
        server.stream(with: .open)
        try await waitUntil("caught up on reconnecting") { remote.int("limit", default: 0) == 6 }
        try await followsTheNewStream(remote, server)
        #expect(remote.lastError == nil)
        if cached { #expect(!sampler.values.contains(0), "the cached value was never lost") }
        #expect(sampler.values.isSubset(of: cached ? [5, 6, 7] : [0, 5, 6, 7]))
        await remote.stop()
        server.stop()
    }

    @Test(arguments: [false, true])
    func aTruncatedEventIsADropAndTheReconnectionCatchesUp(cached: Bool) async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        server.advertiseEvents(true)
        let cache = cached ? try await filledCache(for: server) : nil
        server.stream(with: .truncated)
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache?.path, poll: nil))
        let sampler = ValueSampler { remote.int("limit", default: 0) }
        try await waitUntil("live") { remote.status == .live }
        try await waitUntil("a truncated stream served") { server.streams >= 1 }
        #expect(remote.int("limit", default: 0) == 5)

        // Changed while every stream ends mid-event: only the refetch after each reconnection can bring it.
        server.serve(["limit": 6])
        try await waitUntil("caught up on reconnecting") { remote.int("limit", default: 0) == 6 }
        #expect(remote.status == .live)
        server.stream(with: .open)
        try await followsTheNewStream(remote, server)
        if cached { #expect(!sampler.values.contains(0), "the cached value was never lost") }
        await remote.stop()
        server.stop()
    }

    /// Once the server keeps streams open, the board follows one and a change announced on it arrives.
    private func followsTheNewStream(_ remote: RemoteBoard, _ server: FaultServer) async throws {
        try await waitUntil("following an open stream") { server.openStreams == 1 }
        server.serve(["limit": 7])
        server.announce()
        try await waitUntil("the change announced on the new stream") { remote.int("limit", default: 0) == 7 }
        #expect(remote.status == .live)
    }
}
