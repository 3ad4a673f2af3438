import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `PUT /v1/overrides/{key}?dry_run=1`: the answer a write would give — accepted (on a disabled flag too),
/// refused by the definition's rules (an ICU pattern included), unknown key, stale `If-Match` — and nothing
/// written.
@Suite struct AdminDryRunTests {
    /// A write and its dry run, on two boards in the same state, answer alike.
    struct Case: Sendable, CustomTestStringConvertible {
        let key: String
        let body: String
        var ifMatch: String?
        var status: HTTPResponse.Status
        var testDescription: String { "\(key) \(body) If-Match \(ifMatch ?? "none") → \(status.code)" }
    }

    static let cases: [Case] = [
        Case(key: "app.upload.max_mb", body: #"{"value": 100}"#, status: .ok),
        Case(key: "app.upload.max_mb", body: #"{"text": "100"}"#, ifMatch: "\"0\"", status: .ok),
        Case(key: "app.upload.max_mb", body: #"{"value": 501}"#, status: .badRequest),
        Case(key: "app.upload.max_mb", body: #"{"text": "lots"}"#, status: .badRequest),
        Case(key: "app.upload.max_mb", body: #"{"value": 100}"#, ifMatch: "\"7\"", status: .preconditionFailed),
        Case(key: "app.button_color", body: #"{"text": "treatment"}"#, status: .ok),
        Case(key: "app.new_flow", body: #"{"value": "yes"}"#, status: .badRequest),
        Case(key: "app.nwe_flow", body: #"{"value": true}"#, status: .notFound),
        // ICU's \p{Lu} is not JavaScript's: only the server knows what the pattern accepts.
        Case(key: "app.code", body: #"{"text": "ÄB-12"}"#, status: .ok),
        Case(key: "app.code", body: #"{"text": "ab-12"}"#, status: .badRequest),
        Case(key: "app.upload.max_mb", body: #"{"amount": 1}"#, status: .badRequest),
        // An override wins over `enabled: false`: the dry run must not answer DISABLED.
        Case(key: "app.kill", body: #"{"value": true}"#, status: .ok),
    ]

    static let patterned = """
        namespace: app
        preferences:
          code:
            type: string
            default: AB-01
            pattern: '\\p{Lu}+-[0-9]+'
        flags:
          kill:
            type: bool
            default: true
            enabled: false
        """

    private func withBoard(
        _ test: @escaping @Sendable (Board, any TestClientProtocol) async throws -> Void
    ) async throws {
        let project = TestProject(fixture: "flags")
        try Self.patterned.write(toFile: project.flags + "/code.yaml", atomically: true, encoding: .utf8)
        let board = try project.board()
        let server = FlagServer(board: board, configuration: ServerConfiguration(adminToken: AccessToken("admin")))
        try await server.makeApplication().test(.router) { client in try await test(board, client) }
    }

    private static func put(
        _ client: any TestClientProtocol, _ test: Case, dryRun: Bool
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer admin"]
        if let ifMatch = test.ifMatch { headers[.ifMatch] = ifMatch }
        return try await client.send(.put, "/v1/overrides/\(test.key)" + (dryRun ? "?dry_run=1" : ""),
                                     headers: headers, body: ByteBuffer(string: test.body))
    }

    @Test(arguments: cases)
    func aDryRunAnswersAsTheWriteAndWritesNothing(test: Case) async throws {
        try await withBoard { board, client in
            let dry = try await Self.put(client, test, dryRun: true)
            #expect(dry.status == test.status)
            #expect(board.storedOverride(test.key) == nil)
            #expect(try board.auditLog().isEmpty)
            let write = try await Self.put(client, test, dryRun: false)
            #expect(write.status == test.status)
            #expect(try dry.json == write.json)
        }
    }

    @Test func aDryRunChecksIfMatchAgainstTheCurrentVersion() async throws {
        try await withBoard { board, client in
            try board.set("app.upload.max_mb", to: .int(50), actor: "test")
            let version = try #require(board.storedOverride("app.upload.max_mb")?.version)
            let current = Case(key: "app.upload.max_mb", body: #"{"value": 60}"#, ifMatch: "\"\(version)\"",
                               status: .ok)
            let answer = try await Self.put(client, current, dryRun: true)
            #expect(answer.status == .ok)
            #expect(answer.headers[.eTag] == "\"\(version)\"")
            #expect(board.int("app.upload.max_mb", default: 0) == 50)
            var stale = current
            stale.ifMatch = "\"0\""
            #expect(try await Self.put(client, stale, dryRun: true).status == .preconditionFailed)
        }
    }
}
