import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Locking
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `"expires_at"` in the admin API: a `PUT` takes it beside `"value"` (400 for a time without a zone, in the past or
/// not a string), the answer and `GET /v1/flags` show it, and `GET /v1/audit` shows the expiry as a derived
/// `"event": "expired"` entry once the board's clock passes it.
@Suite struct AdminExpiryTests {
    /// A clock that starts at the wall clock's time and moves only when the test moves it; it never wakes the board,
    /// which these tests do not need.
    final class SteppedClock: BoardClock {
        private let seconds = Locked(SystemClock().now())
        func now() -> Double { seconds.withLock { $0 } }
        func advance(by interval: Double) { seconds.withLock { $0 += interval } }
        func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription {
            ChangeSubscription {}
        }
    }

    private func withServer(
        _ test: @escaping @Sendable (Board, SteppedClock, any TestClientProtocol) async throws -> Void
    ) async throws {
        let project = TestProject(fixture: "flags")
        let clock = SteppedClock()
        let board = try Board(
            inputs: BoardInputs(directory: project.flags, statePath: project.storePath, environment: [:]),
            options: BoardOptions(pollInterval: nil, watchDefinitions: false, logger: quietLogger, clock: clock))
        let server = FlagServer(board: board, configuration: ServerConfiguration(adminToken: AccessToken("admin")))
        try await server.makeApplication().test(.router) { client in try await test(board, clock, client) }
    }

    private static func put(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.send(.put, "/v1/overrides/app.new_flow", headers: [.authorization: "Bearer admin"],
                              body: ByteBuffer(string: body))
    }

    private static func time(_ seconds: Double) -> String { StoredOverride.time(secondsSinceEpoch: seconds) }

    @Test func aPutWithExpiresAtStoresItAndShowsIt() async throws {
        try await withServer { board, clock, client in
            let expiry = Self.time(clock.now() + 3_600)
            let answer = try await Self.put(client, #"{"value": true, "expires_at": "\#(expiry)"}"#)
            #expect(answer.status == .ok)
            #expect(try answer.json.objectValue?["expires_at"] == .string(expiry))
            #expect(board.storedOverride("app.new_flow")?.expiresAt == expiry)
            let list = try await client.send(.get, "/v1/flags", headers: [.authorization: "Bearer admin"])
            let entry = try list.json.objectValue?["flags"]?.listValue?
                .first { $0.objectValue?["key"] == "app.new_flow" }?.objectValue
            #expect(entry?["expires_at"] == .string(expiry))
            #expect(entry?["layer"] == "runtime")
            let other = try list.json.objectValue?["flags"]?.listValue?
                .first { $0.objectValue?["key"] == "app.ratio" }?.objectValue
            #expect(other?["expires_at"] == nil)
        }
    }

    @Test func aDryRunAnswersWithTheExpiryAndWritesNothing() async throws {
        try await withServer { board, _, client in
            let expiry = upcomingExpiry()
            let body = #"{"value": true, "expires_at": "\#(expiry.withOffset)"}"#
            let dry = try await client.send(.put, "/v1/overrides/app.new_flow?dry_run=1",
                                            headers: [.authorization: "Bearer admin"], body: ByteBuffer(string: body))
            #expect(dry.status == .ok)
            #expect(try dry.json.objectValue?["expires_at"] == .string(expiry.utc))
            #expect(board.storedOverride("app.new_flow") == nil)
            let write = try await Self.put(client, body)
            #expect(try dry.json == write.json)
            let pastBody = #"{"value": true, "expires_at": "2020-01-01T00:00:00Z"}"#
            let past = try await client.send(.put, "/v1/overrides/app.new_flow?dry_run=1",
                                             headers: [.authorization: "Bearer admin"],
                                             body: ByteBuffer(string: pastBody))
            #expect(past.status == .badRequest)
        }
    }

    @Test func anOffsetIsStoredAsTheSameInstantInUTC() async throws {
        try await withServer { board, _, client in
            let expiry = upcomingExpiry()
            let answer = try await Self.put(client, #"{"value": true, "expires_at": "\#(expiry.withOffset)"}"#)
            #expect(answer.status == .ok)
            #expect(board.storedOverride("app.new_flow")?.expiresAt == expiry.utc)
        }
    }

    @Test(arguments: [
        (#""2026-12-01T09:00:00""#, "expires_at needs a time zone: '2026-12-01T09:00:00' has none"),
        (#""2020-01-01T09:00:00Z""#, "expires_at 2020-01-01T09:00:00Z is in the past"),
        (#""2099-01-01T09:00:00Z""#, "expires_at 2099-01-01T09:00:00Z is more than 365 days away"),
        (#""next tuesday""#, "expires_at takes an RFC 3339 time with a zone"),
        ("3600", "expires_at must be a string"),
    ])
    func aBadExpiryIsRefusedAndWritesNothing(field: String, message: String) async throws {
        try await withServer { board, _, client in
            let answer = try await Self.put(client, #"{"value": true, "expires_at": \#(field)}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.text.contains(message))
            #expect(board.storedOverride("app.new_flow") == nil)
            #expect(try board.auditLog().isEmpty)
        }
    }

    @Test func theAuditShowsTheExpiryOnceItsTimeHasCome() async throws {
        try await withServer { board, clock, client in
            let expiry = Self.time(clock.now() + 60)
            #expect(try await Self.put(client, #"{"value": true, "expires_at": "\#(expiry)"}"#).status == .ok)
            let before = try await client.send(.get, "/v1/audit", headers: [.authorization: "Bearer admin"])
            #expect(try before.json.objectValue?["records"]?.listValue?.count == 1)
            clock.advance(by: 61)
            let after = try await client.send(.get, "/v1/audit", headers: [.authorization: "Bearer admin"])
            let records = try #require(try after.json.objectValue?["records"]?.listValue)
            #expect(records.count == 2)
            let expired = records.last?.objectValue
            #expect(expired?["event"] == "expired")
            #expect(expired?["time"] == .string(expiry))
            #expect(expired?["key"] == "app.new_flow")
            #expect(expired?["old"] == true)
            #expect(expired?["new"] == .null)
            // Nothing was written: the store holds the one record.
            #expect(try board.store.auditLog(limit: 10).count == 1)
        }
    }

    // An expired override counts for no one: removing every override does not log its removal, as reset --all
    // does not.
    @Test func removingEveryOverrideLeavesAnExpiredOneOut() async throws {
        try await withServer { board, clock, client in
            let expiry = Self.time(clock.now() + 60)
            #expect(try await Self.put(client, #"{"value": true, "expires_at": "\#(expiry)"}"#).status == .ok)
            try board.set("app.ratio", to: 0.25, actor: "t")
            clock.advance(by: 61)
            let removed = try await client.send(.delete, "/v1/overrides", headers: [.authorization: "Bearer admin"])
            #expect(removed.status == .ok)
            // The answer says what went: the live override, not the expired one.
            let answer = try removed.json.objectValue
            #expect(answer?["removed"] == 1)
            #expect(answer?["keys"] == ["app.ratio"])
            let again = try await client.send(.delete, "/v1/overrides", headers: [.authorization: "Bearer admin"])
            #expect(try again.json.objectValue?["removed"] == 0)
            let records = try board.store.auditLog(limit: 10)
            #expect(records.map(\.key) == ["app.new_flow", "app.ratio", "app.ratio"])
            #expect(records.last?.new == nil)
        }
    }
}
