import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// A disabled flag is one thing over HTTP: OFREP answers the reason DISABLED with no value (an OpenFeature client
/// serves its own code default), and the console's row says "disabled", not "targeted", with what a caller gets.
@Suite struct DisabledFlagTests {
    let project = TestProject(definitions: """
        namespace: search
        flags:
          spellcheck:
            type: bool
            default: true
            enabled: false
        """)

    private func withClient(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let board = try Board(inputs: BoardInputs(directory: project.flags, statePath: project.storePath,
                                                  environment: [:]),
                              options: BoardOptions(pollInterval: nil))
        let server = FlagServer(board: board, configuration: ServerConfiguration(adminToken: AccessToken("admin")))
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    @Test func ofrepAnswersDisabledWithNoValue() async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/search.spellcheck",
                                                 body: ByteBuffer(string: #"{"context": {"targetingKey": "u"}}"#))
            #expect(response.status == .ok)
            let body = try response.json.objectValue ?? [:]
            #expect(body["reason"] == "DISABLED")
            #expect(body["value"] == nil)
        }
    }

    @Test func theConsoleRowSaysDisabledAndWhatACallerGets() async throws {
        try await withClient { client in
            let response = try await client.send(.get, "/console/api/flags", headers: [.authorization: "Bearer admin"])
            let flags = try response.json.objectValue?["flags"]?.listValue?.compactMap(\.objectValue) ?? []
            let row = try #require(flags.first { $0["key"] == "search.spellcheck" })
            #expect(row["disabled"] == true)
            #expect(row["targeted"] == nil)
            #expect(row["served"] == .string(Message.disabled.text))
            #expect(row["value"] == .null)
        }
    }
}
