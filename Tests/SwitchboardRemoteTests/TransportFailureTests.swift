import AsyncHTTPClient
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// HTTPClientTransport against real sockets: each way a request can fail is thrown as a RemoteTransportError that
/// says what happened, and a refused connection fails at once rather than at the deadline.
@Suite struct TransportFailureTests {
    private func bulkRequest(_ url: String, timeout: Duration) -> RemoteRequest {
        RemoteRequest(method: "POST", url: url + "/ofrep/v1/evaluate/flags",
                      headers: ["Content-Type": "application/json"], body: Array("{\"context\":{}}".utf8),
                      timeout: timeout)
    }

    private func failure(_ body: () async throws -> Void) async -> RemoteTransportError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? RemoteTransportError
        }
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let port = try await closedPort()
        // Timeouts far beyond the wait: only a failure at the refusal makes the deadline below.
        let transport = HTTPClientTransport(connectTimeout: .seconds(600))
        let request = bulkRequest("http://127.0.0.1:\(port)", timeout: .seconds(600))
        let error = try await withDeadline(.seconds(30)) { await failure { _ = try await transport.send(request) } }
        #expect(error == RemoteTransportError(.refused, "connection refused by 127.0.0.1:\(port)"))
        let streamError = try await withDeadline(.seconds(30)) {
            await failure { _ = try await transport.stream(request) }
        }
        #expect(streamError?.kind == .refused)
    }

    @Test func aHandshakeThatNeverCompletesIsAConnectTimeout() async throws {
        let target = try UnansweredHandshake()
        // The request may take ten minutes; the connect timeout alone ends it.
        let transport = HTTPClientTransport(connectTimeout: .milliseconds(300))
        let request = bulkRequest(target.url, timeout: .seconds(600))
        let error = try await withDeadline(generousDeadline) { await failure { _ = try await transport.send(request) } }
        #expect(error == RemoteTransportError(
            .timedOut, "timed out connecting to 127.0.0.1:\(target.port): no connection within 0.3 seconds"))
    }

    @Test(arguments: [FaultServer.Mode.silent, .stalledBody])
    func aServerThatStopsAnsweringTimesOut(mode: FaultServer.Mode) async throws {
        let server = try FaultServer()
        server.answer(with: mode)
        let transport = HTTPClientTransport()
        let request = bulkRequest(server.url, timeout: .milliseconds(300))
        let error = await failure { _ = try await transport.send(request) }
        #expect(error == RemoteTransportError(
            .timedOut, "timed out: no complete response from 127.0.0.1:\(server.port) within 0.3 seconds"))
        server.stop()
    }

    @Test func aResetEventStreamThrowsAReset() async throws {
        let server = try FaultServer()
        server.stream(with: .reset)
        let transport = HTTPClientTransport()
        let response = try await transport.stream(RemoteRequest(method: "GET", url: server.url + "/events"))
        #expect(response.status == 200)
        let error = await failure { for try await _ in response.body {} }
        #expect(error == RemoteTransportError(.reset, "connection reset by 127.0.0.1:\(server.port)"))
        server.stop()
    }

    @Test func anAppSuppliedClientIsUsedAndLeftToTheApp() async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: HTTPClientTransport.clientConfiguration(connectTimeout: .seconds(1)))
        do {
            do {
                let transport = HTTPClientTransport(client: client)
                #expect(transport.connectTimeout == nil)
                let remote = RemoteBoard(try testConfiguration(server.url), transport: transport)
                try await waitUntil("live") { remote.status == .live }
                #expect(remote.int("limit", default: 0) == 5)
                await remote.stop()
            }
            // The board and its transport are gone; the client is still the app's to use and to shut down.
            let transport = HTTPClientTransport(client: client)
            let response = try await transport.send(bulkRequest(server.url, timeout: .seconds(10)))
            #expect(response.status == 200)
        } catch {
            // A client released without a shutdown stops a debug build (AsyncHTTPClient asserts in its deinit), which
            // would end the whole run here instead of failing this test.
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        server.stop()
    }
}

/// Runs `body`, failing with ``DeadlineExceeded`` when it has not returned within `timeout` (it is then cancelled).
func withDeadline<T: Sendable>(
    _ timeout: Duration, file: String = #fileID, line: Int = #line, _ body: @escaping @Sendable () async -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: DeadlineOutcome<T>.self) { group in
        group.addTask { .returned(await body()) }
        group.addTask {
            try await waitOut(timeout)
            return .late
        }
        defer { group.cancelAll() }
        guard case .returned(let value) = try await group.next()! else {
            throw DeadlineExceeded(what: "the call to return", timeout: timeout, file: file, line: line)
        }
        return value
    }
}

/// What ``withDeadline(_:file:line:_:)`` saw first.
enum DeadlineOutcome<T: Sendable>: Sendable {
    case returned(T)
    case late
}
