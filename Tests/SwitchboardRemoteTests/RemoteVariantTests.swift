import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A remote board names the same variant as the board it reads: none for a value that is no named variant,
/// though the server writes `"variant": ""` for it (some OFREP clients need the field).
@Suite struct RemoteVariantTests {
    let project = TestProject(definitions: """
        flags:
          app.color:
            type: string
            variants: {control: blue, treatment: green}
            default: control
          app.new_flow:
            type: bool
            default: false
        """)

    @Test func aValueWithNoVariantHasNoneRemotelyAsLocally() async throws {
        let board = try project.board()
        let server = try await LiveServer(board: board)
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        let keys = board.registry.keys
        #expect(keys.contains { board.resolve($0).variant == nil })
        #expect(keys.contains { board.resolve($0).variant != nil })
        for key in keys {
            #expect(remote.resolve(key).variant == board.resolve(key).variant, "\(key)")
        }
        await remote.stop()
        await server.stop()
    }
}
