import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// Changes on the server reach the client over the event stream, also across a server restart.
@Suite struct LiveUpdateTests {
    let project = TestProject(fixture: "flags")

    @Test func aRuntimeOverrideReachesTheClientOverTheEventStream() async throws {
        let board = try project.board()
        let server = try await LiveServer(board: board)
        // No polling: only the event stream can bring the change.
        let remote = RemoteBoard(try testConfiguration(server.url, poll: nil))
        try await waitUntil("live") { remote.status == .live }
        let changes = AsyncCollector(remote.changes)
        try board.set("app.new_flow", to: true, actor: "test")
        let change = try await changes.next("the change over the event stream")
        #expect(change.key == "app.new_flow")
        #expect(change.new == .bool(true))
        #expect(remote.bool("app.new_flow", default: false) == true)
        let details = remote.details("app.new_flow", default: false)
        #expect(details.reason == .override)
        #expect(details.layer == .runtime)
        await remote.stop()
        await server.stop()
    }

    @Test func catchesUpAfterTheServerRestartsOnTheSamePort() async throws {
        let board = try project.board()
        var server = try await LiveServer(board: board)
        let port = server.port
        let remote = RemoteBoard(try testConfiguration(server.url, poll: nil))
        try await waitUntil("live") { remote.status == .live }
        await server.stop()
        try await waitUntil("the drop noticed") { remote.lastError != nil }
        // Changed while the client is cut off: no event reaches it, the refetch after reconnecting must.
        try board.set("app.greeting", to: "restarted", actor: "test")
        server = try await LiveServer(board: board, port: port)
        try await waitUntil("caught up") { remote.string("app.greeting", default: "") == "restarted" }
        // And the new stream delivers later changes.
        try board.set("app.upload.max_mb", to: 99, actor: "test")
        try await waitUntil("followed the new stream") { remote.int("app.upload.max_mb", default: 0) == 99 }
        await remote.stop()
        await server.stop()
    }
}
