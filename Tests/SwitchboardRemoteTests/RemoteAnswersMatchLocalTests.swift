import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A remote board gives the answers of the board it reads: the same variant (none for a value that is no named
/// variant, though the server writes `"variant": ""` for it, as some OFREP clients need the field), and the same
/// words for a key nothing defines.
@Suite struct RemoteAnswersMatchLocalTests {
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
        let missing = (local: board.resolve("app.nope"), remote: remote.resolve("app.nope"))
        #expect(missing.remote.errorCode == .flagNotFound && missing.local.errorCode == .flagNotFound)
        #expect(missing.remote.errorMessage == missing.local.errorMessage)
        await remote.stop()
        await server.stop()
    }
}
