import Locking
import Switchboard
import SwitchboardRemote

/// A scripted transport: every fetch answers flag `a` with the value the test sets (after failing the fetches the
/// test asks to fail), and advertises one stream the test writes SSE text to. Later streams never connect.
final class ScriptedTransport: RemoteTransport {
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
        var closed = false
    }

    private let state = Locked(State())
    private let fetchDelay: Duration
    let (events, writer) = AsyncThrowingStream<[UInt8], any Error>.makeStream()

    /// A transport whose fetches each take `fetchDelay`.
    init(fetchDelay: Duration = .zero) {
        self.fetchDelay = fetchDelay
        writer.onTermination = { [weak self] _ in self?.state.withLock { $0.closed = true } }
    }

    var fetches: Int { state.withLock { $0.fetches } }
    var streams: Int { state.withLock { $0.streams } }
    /// Whether the client closed the first stream.
    var closed: Bool { state.withLock { $0.closed } }

    /// Serves `value` from now on, after failing the next fetches with `failures`.
    func change(to value: Int, failingFirst failures: [Failure] = []) {
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
        if fetchDelay > .zero { try await Task.sleep(for: fetchDelay) }
        switch failure {
        case .thrown?: throw Unreachable()
        case .status(let status)?: return RemoteResponse(status: status, body: Array(#"{"errorDetails":"busy"}"#.utf8))
        case nil:
            let body = #"{"flags":[{"key":"a","value":\#(value),"reason":"STATIC"}],"#
                + #""eventStreams":[{"type":"sse","url":"http://scripted.invalid/events"}]}"#
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

    /// Sends SSE text down the stream.
    func emit(_ text: String) { writer.yield(Array(text.utf8)) }

    /// One `refetchEvaluation` event as SSE text.
    static let refetchEvent = "event: message\ndata: {\"type\":\"refetchEvaluation\",\"lastModified\":1}\n\n"

    /// Sends one `refetchEvaluation` event down the stream.
    func emitRefetch() { emit(Self.refetchEvent) }
}
