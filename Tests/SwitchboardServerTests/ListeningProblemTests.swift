import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// A server that cannot listen says why in words, with what to do, rather than with the socket call's error: a port
/// another process holds, an address that is not this machine's.
struct ListeningProblemTests {
    let project = TestProject(fixture: "flags")

    @Test func aPortInUseIsNamedWithAHint() async throws {
        try await LiveServer.with(project, configure: { _ in }) { live in
            let second = FlagServer(board: try project.board(), configuration: ServerConfiguration(
                host: "127.0.0.1", port: live.port), logger: quietLogger)
            let error = await #expect(throws: FlagServer.StartError.self) { _ = try await second.start() }
            #expect(error?.description == "127.0.0.1:\(live.port) is already in use")
            #expect(error?.hint?.contains("port 0 takes a free one") == true)
        }
    }

    @Test func anAddressOfAnotherMachineIsNamed() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
        let server = FlagServer(board: try project.board(), configuration: ServerConfiguration(
            host: "192.0.2.1", port: 0), logger: quietLogger)
        do {
            _ = try await server.start()
            await server.stop()
            Issue.record("listened on 192.0.2.1: this host lets a socket bind an address it does not have")
        } catch let error as FlagServer.StartError {
            #expect(error.description == "192.0.2.1 is not an address of this machine")
        }
    }
}
