import Locking
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A transport whose fetches serve `a` with the value the test sets, fail the next fetches the test asks to, and
/// advertise one stream the test writes SSE text to.
final class FailingRefetchTransport: RemoteTransport {
    /// How one fetch fails.
    enum Failure: Sendable {
        /// The request throws, as a timeout or a refused connection does.
        case thrown
        /// The server answers with this status.
        case status(Int)
    }

    struct Unreachable: Error {}

    private struct State {
        var value = 1
        var failures: [Failure] = []
        var fetches = 0
        var streams = 0
    }

    private let state = Locked(State())
    let (events, writer) = AsyncThrowingStream<[UInt8], any Error>.makeStream()

    var fetches: Int { state.withLock { $0.fetches } }
    var streams: Int { state.withLock { $0.streams } }

    /// Serves `value` from now on, after failing the next fetches with `failures`.
    func change(to value: Int, failingFirst failures: [Failure]) {
        state.withLock { state in
            state.value = value
            state.failures = failures
        }
    }

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let (value, failure) = state.withLock { state -> (Int, Failure?) in
            state.fetches += 1
            return (state.value, state.failures.isEmpty ? nil : state.failures.removeFirst())
        }
        switch failure {
        case .thrown?: throw Unreachable()
        case .status(let status)?: return RemoteResponse(status: status, body: Array(#"{"errorDetails":"busy"}"#.utf8))
        case nil:
            let body = #"{"flags":[{"key":"a","value":\#(value),"reason":"STATIC"}],"#
                + #""eventStreams":[{"type":"sse","url":"http://failing.invalid/events"}]}"#
            return RemoteResponse(status: 200, body: Array(body.utf8))
        }
    }

    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        let first = state.withLock { state -> Bool in
            state.streams += 1
            return state.streams == 1
        }
        guard first else { try await Task.sleep(for: .seconds(3600)); throw CancellationError() }
        return RemoteStreamResponse(status: 200, body: events)
    }

    /// Sends one `refetchEvaluation` event down the stream.
    func emitRefetch() {
        writer.yield(Array("event: message\ndata: {\"type\":\"refetchEvaluation\",\"lastModified\":1}\n\n".utf8))
    }
}

/// A refetch the event stream asked for is retried until the server answers: the event is not sent again, so a
/// refetch that fails once (a timeout on a loaded machine, a 503, a 429) must not lose the change.
@Suite struct RefetchRetryTests {
    @Test(arguments: [
        [FailingRefetchTransport.Failure.thrown],
        [.status(503), .thrown, .status(500)],
        [.status(429)],
    ])
    func aFailedRefetchIsRetriedUntilTheChangeArrives(failures: [FailingRefetchTransport.Failure]) async throws {
        let transport = FailingRefetchTransport()
        // No polling, so only the stream's refetch (and its retries) can bring the change.
        let remote = RemoteBoard(try testConfiguration("http://failing.invalid", poll: nil), transport: transport)
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
