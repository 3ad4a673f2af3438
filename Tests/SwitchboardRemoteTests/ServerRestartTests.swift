import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A server killed under a board that follows its event stream and started again on the same port: the board
/// keeps its values, reports the outage, and catches up with what changed while it was cut off.
@Suite struct ServerRestartTests {
    let project = TestProject(fixture: "flags")

    @Test(arguments: [false, true])
    func aKilledServerRestartedOnTheSamePortIsCaughtUp(cached: Bool) async throws {
        let server = try FaultServer()
        server.serve(["limit": 5])
        server.advertiseEvents(true)
        let cache = cached ? try await filledCache(for: server) : nil
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cache?.path, poll: nil))
        let sampler = ValueSampler { remote.int("limit", default: 0) }
        try await waitUntil("following the stream") { remote.status == .live && server.openStreams == 1 }

        server.stop()
        // The first failure may be a pooled connection found closed; the port refusing follows at once.
        try await waitUntil("the refusal reported") {
            remote.lastError == .unreachable("connection refused by 127.0.0.1:\(server.port)")
        }
        #expect(remote.status == .live, "still serving the last answer")
        #expect(remote.int("limit", default: 0) == 5)

        let restarted = try FaultServer(port: server.port)
        restarted.serve(["limit": 6])
        restarted.advertiseEvents(true)
        try await waitUntil("caught up") { remote.int("limit", default: 0) == 6 }
        try await waitUntil("following the new stream") { restarted.openStreams == 1 }
        #expect(remote.status == .live)
        #expect(remote.lastError == nil)
        // Without a cache the default shows only before the first answer, never after it.
        if cached { #expect(!sampler.values.contains(0), "the value was never lost") }
        await remote.stop()
        restarted.stop()
    }

    @Test(arguments: [false, true])
    func switchboardServeRestartedOnTheSamePortIsCaughtUp(cached: Bool) async throws {
        let board = try project.board()
        var server = try await LiveServer(board: board)
        let remote = RemoteBoard(try testConfiguration(server.url, cache: cached ? project.cache : nil, poll: nil))
        try await waitUntil("live") { remote.status == .live }
        await remote.stop()
        // A second board, started from the cache the first one left (or from nothing), follows the server.
        let follower = RemoteBoard(try testConfiguration(server.url, cache: cached ? project.cache : nil, poll: nil))
        if cached {
            #expect(follower.status == .cached)
            #expect(follower.string("app.greeting", default: "") == "hello")
        }
        let sampler = ValueSampler { follower.int("app.upload.max_mb", default: 0) }
        try await waitUntil("live") { follower.status == .live }

        await server.stop()
        try await waitUntil("the outage reported") { follower.lastError != nil }
        #expect(follower.int("app.upload.max_mb", default: 0) == 25)
        try board.set("app.upload.max_mb", to: 64, actor: "test")
        server = try await LiveServer(board: board, port: server.port)
        try await waitUntil("caught up") { follower.int("app.upload.max_mb", default: 0) == 64 }
        #expect(follower.status == .live)
        // And the new event stream delivers later changes.
        try board.set("app.upload.max_mb", to: 65, actor: "test")
        try await waitUntil("followed the new stream") { follower.int("app.upload.max_mb", default: 0) == 65 }
        if cached { #expect(!sampler.values.contains(0), "the value was never lost") }
        await follower.stop()
        await server.stop()
    }
}
