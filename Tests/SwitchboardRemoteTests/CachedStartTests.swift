import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// What "settled" means: a board with a cache for its context is ready the moment it is made, whatever the server
/// does; one without waits for its first fetch to end, and a refused connection ends it at once.
@Suite struct CachedStartTests {
    @Test func aCachedBoardIsSettledAtOnceWhileTheFirstFetchIsStillWaiting() async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        let cache = try await filledCache(for: server)
        server.answer(with: .silent)
        // A request timeout far beyond the wait below: only a board that does not wait for the fetch settles.
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache.path, timeout: .seconds(600)))
        #expect(remote.status == .cached)
        try await waitUntilSettled(remote)
        #expect(remote.lastError == nil, "the first fetch has not ended: the cache settled the board")
        #expect(remote.int("limit", default: 0) == 5)
        let details = remote.details("limit", default: 0)
        #expect(details.reason == .cached)
        #expect(details.errorCode == nil)
        // Fetching goes on behind the cache and replaces its values once the server answers.
        server.stop()
        let restarted = try FaultServer(port: server.port)
        restarted.serve(["limit": 6])
        try await waitUntil("the server's answer replaces the cache") { remote.int("limit", default: 0) == 6 }
        #expect(remote.status == .live)
        #expect(remote.details("limit", default: 0).reason == .static)
        await remote.stop()
        restarted.stop()
    }

    @Test func withoutACacheTheBoardSettlesWhenTheFirstFetchFails() async throws {
        let port = try await closedPort()
        let remote = RemoteBoard(
            try testConfiguration("http://127.0.0.1:\(port)", timeout: .seconds(600)),
            transport: HTTPClientTransport(connectTimeout: .seconds(600)))
        #expect(remote.status == .starting)
        try await waitUntilSettled(remote)
        #expect(remote.lastError == .unreachable("connection refused by 127.0.0.1:\(port)"))
        #expect(remote.status == .starting)
        #expect(remote.details("limit", default: 3).errorCode == .providerNotReady)
        await remote.stop()
    }

    @Test func withoutACacheTheBoardSettlesOnTheServersAnswer() async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        let remote = RemoteBoard(try testConfiguration(server.url))
        try await waitUntilSettled(remote)
        #expect(remote.status == .live)
        #expect(remote.int("limit", default: 0) == 5)
        await remote.stop()
        server.stop()
    }
}
