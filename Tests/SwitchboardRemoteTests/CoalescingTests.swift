import Locking
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A scripted transport: every fetch answers the same flags and advertises a stream the test writes SSE text to.
final class ScriptedTransport: RemoteTransport {
    private let state = Locked<(fetches: Int, streams: Int, closed: Bool)>((0, 0, false))
    let (events, writer) = AsyncThrowingStream<[UInt8], any Error>.makeStream()

    init() {
        writer.onTermination = { [weak self] _ in self?.state.withLock { $0.closed = true } }
    }

    var fetches: Int { state.withLock { $0.fetches } }
    var streams: Int { state.withLock { $0.streams } }
    /// Whether the client closed the first stream.
    var closed: Bool { state.withLock { $0.closed } }

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        state.withLock { $0.fetches += 1 }
        try await Task.sleep(for: .milliseconds(30))
        let body = #"{"flags":[{"key":"a","value":1,"reason":"STATIC"}],"#
            + #""eventStreams":[{"type":"sse","url":"http://scripted.invalid/events"}]}"#
        return RemoteResponse(status: 200, body: Array(body.utf8))
    }

    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        let first = state.withLock { state -> Bool in
            state.streams += 1
            return state.streams == 1
        }
        guard first else { try await Task.sleep(for: .seconds(3600)); throw CancellationError() }
        return RemoteStreamResponse(status: 200, body: events)
    }

    /// Sends SSE text down the stream.
    func emit(_ text: String) { writer.yield(Array(text.utf8)) }
}

/// A burst of change events makes one or two refetches, not one each; an inactive app closes the stream.
@Suite struct CoalescingTests {
    @Test func aBurstOfEventsIsCoalesced() async throws {
        let transport = ScriptedTransport()
        let remote = RemoteBoard(try testConfiguration("http://scripted.invalid", poll: nil), transport: transport)
        try await waitUntil("following the stream") { transport.streams == 1 && transport.fetches >= 2 }
        try await Task.sleep(for: .milliseconds(100))
        let before = transport.fetches
        let event = "event: message\ndata: {\"type\":\"refetchEvaluation\",\"lastModified\":1}\n\n"
        transport.emit(String(repeating: event, count: 50))
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
