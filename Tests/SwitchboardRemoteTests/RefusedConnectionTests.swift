import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A stopped `switchboard serve`: the refused connection is reported at once (not at the request's deadline), the
/// cache serves meanwhile, and the board catches up when the server starts again on the same port.
@Suite struct RefusedConnectionTests {
    let project = TestProject(fixture: "flags")

    @Test(arguments: [false, true])
    func aStoppedServerIsReportedAtOnceAndCaughtUpWhenItStarts(cached: Bool) async throws {
        let board = try project.board()
        try board.set("app.upload.max_mb", to: 80, actor: "test")
        var server = try await LiveServer(board: board)
        let port = server.port
        if cached {
            let filler = RemoteBoard(try testConfiguration(server.url, cache: project.cache, poll: nil))
            try await waitUntil("the cache filled") { filler.status == .live }
            await filler.stop()
        }
        await server.stop()

        // Request and connect timeouts far beyond the wait below: only a failure seen when the kernel refuses the
        // connection, without retrying until a deadline, is reported in time.
        let remote = RemoteBoard(
            try testConfiguration(server.url, cache: cached ? project.cache : nil, timeout: .seconds(600)),
            transport: HTTPClientTransport(connectTimeout: .seconds(600)))
        let sampler = ValueSampler { remote.int("app.upload.max_mb", default: 0) }
        try await waitUntil("the refusal reported", timeout: .seconds(30)) { remote.lastError != nil }
        #expect(remote.lastError == .unreachable("connection refused by 127.0.0.1:\(port)"))
        #expect(remote.status == (cached ? RemoteBoard.Status.cached : .starting))
        #expect(remote.int("app.upload.max_mb", default: 0) == (cached ? 80 : 0))

        try board.set("app.upload.max_mb", to: 90, actor: "test")
        server = try await LiveServer(board: board, port: port)
        try await waitUntil("caught up") { remote.int("app.upload.max_mb", default: 0) == 90 }
        #expect(remote.status == .live)
        #expect(remote.lastError == nil)
        if cached { #expect(!sampler.values.contains(0), "the cached value was never lost") }
        await remote.stop()
        await server.stop()
    }
}
