import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The admin API under `/v1`, with the admin token.
@Suite struct AdminAPITests {
    let project = TestProject(fixture: "flags")
    static let authorization: HTTPFields = [.authorization: "Bearer admin-secret"]

    private func withClient(
        board: Board? = nil, maxBodyBytes: Int = ServerConfiguration.defaultMaxBodyBytes,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = ServerConfiguration(adminToken: AccessToken("admin-secret"), maxBodyBytes: maxBodyBytes)
        let server = FlagServer(board: try board ?? project.board(), configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private func request(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil
    ) async throws -> TestResponse {
        try await client.send(method, uri, headers: Self.authorization, body: body.map(ByteBuffer.json))
    }

    @Test func listsDefinitionsWithResolvedValuesAndLayers() async throws {
        let board = try project.board()
        try board.set("app.upload.max_mb", to: 100, actor: "test")
        try await withClient(board: board) { client in
            let response = try await request(client, .get, "/v1/flags")
            #expect(response.status == .ok)
            let json = try response.json.objectValue ?? [:]
            #expect(json["revision"] == .int(Int(board.revision)))
            let flags = json["flags"]?.listValue?.compactMap(\.objectValue) ?? []
            #expect(flags.count == board.registry.count)
            let upload = try #require(flags.first { $0["key"] == "app.upload.max_mb" })
            #expect(upload["value"] == 100)
            #expect(upload["default"] == 25)
            #expect(upload["layer"] == "runtime")
            #expect(upload["reason"] == "OVERRIDE")
            #expect(upload["type"] == "int")
            #expect(upload["kind"] == "preference")
            #expect(upload["description"] == "Largest upload, in megabytes.")
            let color = try #require(flags.first { $0["key"] == "app.button_color" })
            #expect(color["layer"] == "default")
            #expect(color["variant"] == "control")
        }
    }

    @Test func explainsOneKey() async throws {
        try await withClient { client in
            let response = try await request(client, .get, "/v1/flags/app.ratio")
            #expect(response.status == .ok)
            let json = try response.json.objectValue ?? [:]
            #expect(json["key"] == "app.ratio")
            #expect(json["environmentVariable"] == "SWITCHBOARD_APP__RATIO")
            let layers = json["layers"]?.listValue?.compactMap { $0.objectValue?["layer"]?.stringValue }
            #expect(layers == ["runtime", "env", "file", "default"])
        }
    }

    @Test func answersAnUnknownKeyWith404AndSuggestions() async throws {
        try await withClient { client in
            let response = try await request(client, .get, "/v1/flags/app.rati")
            #expect(response.status == .notFound)
            #expect(try response.json == [
                "error": "unknown key 'app.rati'", "hint": "did you mean 'app.ratio'?", "suggestions": ["app.ratio"],
            ])
            #expect(try await request(client, .put, "/v1/overrides/app.rati", body: #"{"value":2}"#).status
                == .notFound)
            #expect(try await request(client, .delete, "/v1/overrides/app.rati").status == .notFound)
        }
    }

    @Test func setsAnOverrideFromTypedJSONOrText() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let typed = try await request(client, .put, "/v1/overrides/app.ratio",
                                          body: #"{"value": 2, "actor": "alice"}"#)
            #expect(typed.status == .ok)
            #expect(try typed.json == ["key": "app.ratio", "value": 2.0, "layer": "runtime", "reason": "OVERRIDE"])

            let text = try await request(client, .put, "/v1/overrides/app.theme",
                                         body: #"{"text": "{\"dark\": false}"}"#)
            #expect(text.status == .ok)
            #expect(board.resolve("app.theme").value == ["dark": false])
        }
        // The audit records who the token says sent it; a name in the body is kept beside it, never instead.
        #expect(try board.auditLog().map(\.actor) == ["admin-token", "admin-token"])
        #expect(try board.auditLog().map(\.claimedActor) == ["alice", nil])
        #expect(try board.auditLog().map(\.verified) == [true, true])
        // Another board on the same store sees the override: it was persisted, not only applied.
        #expect(try project.board().resolve("app.ratio").value == 2.0)
    }

    @Test(arguments: [
        (#"{"value": 1000}"#,
         "refused value for app.upload.max_mb: 1000 is above the maximum 500 of app.upload.max_mb; "
            + "nothing was written"),
        (#"{"value": "big"}"#, nil),
        (#"{"text": "many"}"#, nil),
        (#"{"value": 1.5}"#, nil),
        (#"{}"#, nil),
        (#"{"value": 1, "text": "1"}"#, nil),
        ("[1]", nil),
        ("nope", nil),
        // A misspelt field is refused rather than ignored: this write would otherwise never expire.
        (#"{"value": 2, "expiresAt": "2099-01-01T00:00:00Z"}"#, "unknown field 'expiresAt' in the body"),
        (#"{"value": 2, "valeu": 3}"#, "unknown field 'valeu' in the body"),
    ])
    func refusesABadValueWith400AndWritesNothing(body: String, message: String?) async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let response = try await request(client, .put, "/v1/overrides/app.upload.max_mb", body: body)
            #expect(response.status == .badRequest)
            let error = try response.json.objectValue?["error"]?.stringValue
            #expect(error != nil)
            if let message { #expect(error == message) }
            if body.contains("expiresAt") {
                #expect(try response.json.objectValue?["hint"]?.stringValue == "did you mean 'expires_at'?")
            }
        }
        #expect(project.read(".switchboard/overrides.json") == nil)
        #expect(try board.auditLog().isEmpty)
        #expect(board.resolve("app.upload.max_mb").value == 25)
    }

    /// Typed JSON nests no deeper than text typed after `switchboard set` may: 64 levels pass, 65 are refused, on
    /// both paths, so the store's export always holds what its import reads back.
    @Test func aValueNestsAsDeepAsTextMayAndNoDeeper() async throws {
        @Sendable func nested(_ levels: Int) -> String {
            String(repeating: #"{"a": "#, count: levels) + "1" + String(repeating: "}", count: levels)
        }
        let board = try project.board()
        try await withClient(board: board) { client in
            let path = "/v1/overrides/app.theme"
            let deepest = try await request(client, .put, path, body: #"{"value": "# + nested(64) + "}")
            #expect(deepest.status == .ok)
            let deeper = try await request(client, .put, path, body: #"{"value": "# + nested(65) + "}")
            #expect(deeper.status == .badRequest)
            let error = try deeper.json.objectValue?["error"]?.stringValue
            #expect(error?.contains("nesting deeper than 64 levels") == true, "\(String(describing: error))")
        }
        let definition = try #require(board.registry["app.theme"])
        #expect((try? definition.fit(text: nested(64)).get()) != nil)
        #expect((try? definition.fit(text: nested(65)).get()) == nil)
        #expect(try board.auditLog().count == 1)
    }

    @Test func refusesABodyOverTheLimitWith413() async throws {
        try await withClient(maxBodyBytes: 32) { client in
            let body = #"{"value": "\#(String(repeating: "x", count: 64))"}"#
            let response = try await request(client, .put, "/v1/overrides/app.button_color", body: body)
            #expect(response.status == .contentTooLarge)
        }
        #expect(project.read(".switchboard/overrides.json") == nil)
    }

    @Test func removesAnOverride() async throws {
        let board = try project.board()
        try board.set("app.ratio", to: 3.5, actor: "test")
        try await withClient(board: board) { client in
            let response = try await request(client, .delete, "/v1/overrides/app.ratio?actor=bob")
            #expect(response.status == .ok)
            #expect(try response.json == ["key": "app.ratio", "value": 1.0, "layer": "default", "reason": "STATIC"])
        }
        #expect(try board.auditLog().last?.actor == "admin-token")
        #expect(try board.auditLog().last?.claimedActor == "bob")
        #expect(try board.auditLog().last?.new == nil)
    }

    @Test func readsTheAuditLog() async throws {
        let board = try project.board()
        try board.set("app.ratio", to: 2, actor: "alice")
        try board.set("app.new_flow", to: true, actor: "bob")
        try board.reset("app.ratio", actor: "carol")
        try await withClient(board: board) { client in
            let all = try await request(client, .get, "/v1/audit").json.objectValue?["records"]?.listValue ?? []
            #expect(all.compactMap { $0.objectValue?["actor"]?.stringValue } == ["alice", "bob", "carol"])
            let first = try #require(all.first?.objectValue)
            #expect(first["key"] == "app.ratio")
            #expect(first["old"] == .null)
            #expect(first["new"] == 2.0)

            let last = try await request(client, .get, "/v1/audit?limit=1").json.objectValue?["records"]
            #expect(last?.listValue?.count == 1)
            #expect(last?.listValue?.first?.objectValue?["actor"] == "carol")

            #expect(try await request(client, .get, "/v1/audit?limit=zero").status == .badRequest)
            #expect(try await request(client, .get, "/v1/audit?limit=-1").status == .badRequest)
        }
    }

    @Test func aCorruptAuditLogIsAnErrorNotAnEmptyHistory() async throws {
        let board = try project.board()
        try board.set("app.ratio", to: 2, actor: "alice")
        let log = try #require(project.read(".switchboard/audit.jsonl"))
        _ = project.write(".switchboard/audit.jsonl", "not a record\n" + log)
        try await withClient(board: board) { client in
            let response = try await request(client, .get, "/v1/audit")
            #expect(response.status == .internalServerError)
            let error = try response.json.objectValue?["error"]?.stringValue ?? ""
            #expect(error.contains("is corrupt at byte 0: the line is not an audit record"), "\(error)")
        }
    }

    @Test func servesAnOverrideOverOFREPAtOnce() async throws {
        try await withClient { client in
            _ = try await request(client, .put, "/v1/overrides/app.button_color", body: #"{"value": "green"}"#)
            let served = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.button_color",
                                                  body: emptyContext).json
            #expect(served.objectValue?["value"] == "green")
            #expect(served.objectValue?["variant"] == "treatment")
        }
    }
}
