import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A server that answers `503` until it is ready, then `200`: the status is reported, the cache serves meanwhile,
/// and the first `200` is taken.
@Suite struct ServiceUnavailableTests {
    @Test(arguments: [false, true])
    func a503ThenA200(cached: Bool) async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        let cache = cached ? try await filledCache(for: server) : nil
        server.answer(with: .status(503, count: .max))
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache?.path))
        let sampler = ValueSampler { remote.int("limit", default: 0) }
        try await waitUntilSettled(remote)
        try await waitUntil("the 503 reported") { remote.lastError == .httpStatus(503) }
        #expect(remote.status == (cached ? RemoteBoard.Status.cached : .starting))
        #expect(remote.int("limit", default: 0) == (cached ? 5 : 0))

        server.serve(["limit": 6])
        server.answer(with: .normal)
        try await waitUntil("recovered") { remote.int("limit", default: 0) == 6 }
        #expect(remote.status == .live)
        #expect(remote.lastError == nil)
        if cached { #expect(!sampler.values.contains(0), "the cached value was never lost") }
        await remote.stop()
        server.stop()
    }
}
