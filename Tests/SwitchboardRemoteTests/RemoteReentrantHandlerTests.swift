import Foundation
import Locking
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A remote board delivers its changes outside its locks, with their values: an observer that sets a device-local
/// override completes, and a chain of three runs to the end with every value right.
@Suite struct RemoteReentrantHandlerTests {
    let project = TestProject(fixture: "flags")

    @Test func aChainOfLocalOverridesSetByObserversCompletes() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        let seen = Locked<[String]>([])
        let first = remote.observe("app.new_flow") { change in
            seen.withLock { $0.append("new_flow=\(change.new!)") }
            if change.new == true { try? remote.setLocalOverride("app.greeting", to: "chained") }
        }
        let second = remote.observe("app.greeting") { change in
            seen.withLock { $0.append("greeting=\(change.new!)") }
            #expect(change.reason == .override && change.layer == .runtime)
            try? remote.setLocalOverride("app.upload.max_mb", to: 77)
        }
        let third = remote.observe("app.upload.max_mb") { change in
            seen.withLock { $0.append("upload.max_mb=\(change.new!)") }
        }
        try remote.setLocalOverride("app.new_flow", to: true)
        // Every handler ran before the first write returned, in the order the changes happened.
        #expect(seen.withLock { $0 } == ["new_flow=true", "greeting=\"chained\"", "upload.max_mb=77"])
        #expect(remote.string("app.greeting", default: "") == "chained")
        #expect(remote.int("app.upload.max_mb", default: 0) == 77)
        _ = (first, second, third)
        await remote.stop()
        await server.stop()
    }
}
