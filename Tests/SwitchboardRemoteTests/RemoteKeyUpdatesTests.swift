import Foundation
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// `updates(of:)` on a remote board: the server's change to the key reaches the stream, other keys do not, and
/// ending the stream frees its observer.
@Suite struct RemoteKeyUpdatesTests {
    let project = TestProject(fixture: "flags")

    @Test func aServerChangeReachesTheKeysStreamOnly() async throws {
        let board = try project.board()
        let server = try await LiveServer(board: board)
        let remote = RemoteBoard(try testConfiguration(server.url))
        try await waitUntil("live") { remote.status == .live }
        let limits = AsyncCollector(remote.updates(of: FlagKey("app.upload.max_mb", default: 0)))
        #expect(try await limits.next() == 25)
        try board.set("app.greeting", to: "hey", actor: "server")
        try board.set("app.upload.max_mb", to: 40, actor: "server")
        #expect(try await limits.next() == 40)
        #expect(limits.elements == [25, 40])
        await remote.stop()
        await server.stop()
    }

    @Test func endingTheStreamFreesItsObserver() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url))
        let task = Task {
            for await _ in remote.updates(of: FlagKey("app.new_flow", default: false)) {}
        }
        try await waitUntil("the stream to observe its key") { remote.observerCount == 1 }
        task.cancel()
        try await waitUntil("the observer to be released") { remote.observerCount == 0 }
        await remote.stop()
        await server.stop()
    }
}
