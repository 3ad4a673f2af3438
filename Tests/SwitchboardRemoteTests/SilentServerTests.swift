import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// Servers that accept the connection and then fail to answer: silent from the start, or a head whose body stalls.
/// Each is a timeout after the request's timeout, the cache (when there is one) serves meanwhile, and the board
/// recovers when the server answers again.
@Suite struct SilentServerTests {
    @Test(arguments: [FaultServer.Mode.silent, .stalledBody], [false, true])
    func aServerThatStopsAnsweringIsATimeout(mode: FaultServer.Mode, cached: Bool) async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        let cache = cached ? try await filledCache(for: server) : nil
        server.answer(with: mode)
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache?.path, timeout: .seconds(1)))
        let sampler = ValueSampler { remote.int("limit", default: 0) }
        try await waitUntilSettled(remote)
        #expect(remote.status == (cached ? RemoteBoard.Status.cached : .starting))
        #expect(remote.int("limit", default: 0) == (cached ? 5 : 0))

        try await waitUntil("the timeout reported") { remote.lastError != nil }
        #expect(remote.lastError == .unreachable("timed out: no complete response from 127.0.0.1:\(server.port) "
            + "within 1.0 seconds"))
        #expect(remote.status == (cached ? RemoteBoard.Status.cached : .starting))
        #expect(remote.int("limit", default: 0) == (cached ? 5 : 0))

        server.serve(["limit": 6])
        server.answer(with: .normal)
        // One timed-out request in flight, then the capped backoff: well inside the generous deadline. (No bound
        // on the time is asserted: under a sanitizer on a loaded machine it took 40 s.)
        try await waitUntil("recovered") { remote.int("limit", default: 0) == 6 }
        #expect(remote.status == .live)
        #expect(remote.lastError == nil)
        if cached { #expect(!sampler.values.contains(0), "the cached value was never lost") }
        await remote.stop()
        server.stop()
    }
}
