import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `POST /ofrep/v1/evaluate/flags/{key}` through the router.
@Suite struct OFREPEvaluationTests {
    let project = TestProject(fixture: "flags")

    private func withClient(
        _ configuration: ServerConfiguration = ServerConfiguration(), board: Board? = nil,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = FlagServer(board: try board ?? project.board(), configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    @Test(arguments: [
        ("app.new_flow", #"{"key":"app.new_flow","value":false,"reason":"STATIC","variant":"","metadata":{}}"#),
        ("app.button_color",
         #"{"key":"app.button_color","value":"blue","reason":"STATIC","variant":"control","metadata":{}}"#),
        ("app.upload.max_mb", #"{"key":"app.upload.max_mb","value":25,"reason":"STATIC","variant":"","metadata":{}}"#),
        ("app.ratio", #"{"key":"app.ratio","value":1.0,"reason":"STATIC","variant":"","metadata":{}}"#),
        ("app.theme",
         #"{"key":"app.theme","value":{"accent":"teal","dark":true},"reason":"STATIC","variant":"","metadata":{}}"#),
        ("app.regions", #"{"key":"app.regions","value":["eu","us"],"reason":"STATIC","variant":"","metadata":{}}"#),
    ])
    func evaluatesEveryType(key: String, body: String) async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/\(key)",
                                                    body: emptyContext)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.text == body)
        }
    }

    @Test func answersAnUnknownKeyWith404() async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.nope",
                                                    body: emptyContext)
            #expect(response.status == .notFound)
            #expect(try response.json == [
                "key": "app.nope", "errorCode": "FLAG_NOT_FOUND", "errorDetails": "no definition has the key app.nope",
            ])
        }
    }

    @Test(arguments: [
        ("{\"context\":", "PARSE_ERROR"),
        ("[]", "INVALID_CONTEXT"),
        (#"{"context":"user-1"}"#, "INVALID_CONTEXT"),
        (#"{"context":[]}"#, "INVALID_CONTEXT"),
    ])
    func refusesAMalformedBodyWith400(body: String, code: String) async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.new_flow",
                                                    body: .json(body))
            #expect(response.status == .badRequest)
            let json = try response.json
            #expect(json.objectValue?["key"] == "app.new_flow")
            #expect(json.objectValue?["errorCode"] == .string(code))
            #expect(json.objectValue?["errorDetails"]?.stringValue?.isEmpty == false)
        }
    }

    @Test(arguments: ["", "{}", #"{"context":{"targetingKey":"user-1","plan":"pro"}}"#,
                      #"{"context":{"targetingKey":7}}"#])
    func acceptsAnyWellFormedContext(body: String) async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.new_flow",
                                                    body: .json(body))
            #expect(response.status == .ok)
        }
    }

    @Test(arguments: ["app%2Enew_flow", "app.new%5Fflow", "%61pp.new_flow"])
    func percentDecodesTheKey(path: String) async throws {
        try await withClient { client in
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/\(path)",
                                                    body: emptyContext)
            #expect(response.status == .ok)
            #expect(try response.json.objectValue?["key"] == "app.new_flow")
        }
    }

    @Test func refusesABodyOverTheLimitWith413() async throws {
        try await withClient(ServerConfiguration(maxBodyBytes: 64)) { client in
            let body = #"{"context":{"padding":"\#(String(repeating: "x", count: 100))"}}"#
            let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.new_flow",
                                                    body: .json(body))
            #expect(response.status == .contentTooLarge)
            #expect(try response.json.objectValue?["errorDetails"] ==
                "the request body is larger than the limit of 64 bytes")
        }
    }

    @Test func servesEveryLayerWithOverridesAsStatic() async throws {
        project.write("flags/local.overrides.yaml", "overrides:\n  app.button_color: green\n")
        let board = try project.board(environment: [KeySyntax.environmentVariable(for: "app.new_flow"): "true"])
        try board.set("app.upload.max_mb", to: 100, actor: "test")
        try await withClient(board: board) { client in
            let expected: [(key: String, body: Value)] = [
                ("app.button_color", [
                    "key": "app.button_color", "value": "green", "reason": "STATIC", "variant": "treatment",
                    "metadata": ["switchboard.layer": "file"],
                ]),
                ("app.new_flow", [
                    "key": "app.new_flow", "value": true, "reason": "STATIC", "variant": "",
                    "metadata": ["switchboard.layer": "env"],
                ]),
                ("app.upload.max_mb", [
                    "key": "app.upload.max_mb", "value": 100, "reason": "STATIC", "variant": "",
                    "metadata": ["switchboard.layer": "runtime"],
                ]),
                ("app.ratio", ["key": "app.ratio", "value": 1.0, "reason": "STATIC", "variant": "", "metadata": [:]]),
            ]
            for (key, body) in expected {
                let response = try await client.send(.post, "/ofrep/v1/evaluate/flags/\(key)", body: emptyContext)
                #expect(try response.json == body, "\(key)")
            }
        }
    }

    @Test func answersWhatTheLibraryResolves() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            for key in board.registry.keys {
                let served = try await client.send(.post, "/ofrep/v1/evaluate/flags/\(key)",
                                                      body: emptyContext).json
                #expect(served.objectValue?["value"] == board.resolve(key).value)
            }
        }
    }
}
