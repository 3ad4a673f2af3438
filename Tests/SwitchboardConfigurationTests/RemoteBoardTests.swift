import Configuration
import Locking
import Switchboard
import SwitchboardConfiguration
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// A transport whose every fetch answers the flags the test last gave it.
final class FlagsTransport: RemoteTransport {
    private let body = Locked("")

    init(_ flags: String) {
        answer(flags)
    }

    /// Answers `flags` (the JSON of the bulk answer's `flags` array) from now on.
    func answer(_ flags: String) {
        body.withLock { $0 = #"{"flags":"# + flags + "}" }
    }

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        RemoteResponse(status: 200, body: Array(body.withLock { $0 }.utf8))
    }

    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        throw CancellationError()
    }
}

/// The provider reads a remote board as it reads a local one, and its watches follow the server's answers.
@Suite struct RemoteBoardTests {
    static let flags = #"[{"key":"app.max_items","value":25,"reason":"STATIC"},"#
        + #"{"key":"app.tags","value":["alpha","beta"],"reason":"STATIC"},"#
        + #"{"key":"app.limits","value":{"upload":5},"reason":"STATIC"}]"#

    func remote(_ transport: FlagsTransport) throws -> RemoteBoard {
        RemoteBoard(try RemoteConfiguration(baseURL: "http://remote.invalid", pollInterval: .seconds(3600),
                                            environment: [:]),
                    transport: transport)
    }

    @Test func aRemoteBoardReadsThroughTheProvider() async throws {
        let remote = try remote(FlagsTransport(Self.flags))
        await remote.waitUntilSettled()
        let config = ConfigReader(provider: SwitchboardProvider(board: remote))
        #expect(config.int(forKey: "app.max_items") == 25)
        #expect(config.stringArray(forKey: "app.tags") == ["alpha", "beta"])
        #expect(config.int(forKey: "app.no_such_key") == nil)
        #expect(throws: SwitchboardProvider.TypeMismatch.self) { try config.requiredBool(forKey: "app.max_items") }
        #expect(throws: SwitchboardProvider.TypeMismatch.self) { try config.requiredString(forKey: "app.limits") }
        await remote.stop()
    }

    @Test func aWatchFollowsTheServersAnswers() async throws {
        let transport = FlagsTransport(Self.flags)
        let remote = try remote(transport)
        await remote.waitUntilSettled()
        let config = ConfigReader(provider: SwitchboardProvider(board: remote))
        try await config.watchInt(forKey: "app.max_items") { updates in
            let values = AsyncCollector(updates)
            let current = try await values.next("the current value")
            #expect(current == 25)
            transport.answer(#"[{"key":"app.max_items","value":40,"reason":"STATIC"}]"#)
            remote.refresh()
            let next = try await values.next("the new answer")
            #expect(next == 40)
        }
        await remote.stop()
    }
}
