import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The web console's routes: the page and its assets with their security headers, who may read, the list rows,
/// explain with a context, and the warning of a server open beyond this machine.
@Suite struct ConsoleTests {
    let project = TestProject(fixture: "flags")

    private func withClient(
        admin: String? = "admin-secret", read: String? = nil, board: Board? = nil,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = ServerConfiguration(adminToken: admin.flatMap(AccessToken.init),
                                                readToken: read.flatMap(AccessToken.init))
        let server = FlagServer(board: try board ?? project.board(), configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    @Test(arguments: [
        ("/", "text/html; charset=utf-8"), ("/console/app.js", "text/javascript; charset=utf-8"),
        ("/console/app.css", "text/css; charset=utf-8"), ("/console/icon.svg", "image/svg+xml"),
    ])
    func servesTheAssetsFromTheBinaryWithSecurityHeaders(path: String, contentType: String) async throws {
        try await withClient { client in
            let response = try await client.send(.get, path)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == contentType)
            #expect(response.headers[HTTPField.Name("Content-Security-Policy")!] == "default-src 'none'; "
                + "script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; "
                + "form-action 'none'; frame-ancestors 'none'")
            #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(!response.text.isEmpty)
        }
    }

    @Test func thePageHasNoInlineScriptOrStyle() async throws {
        try await withClient { client in
            let page = try await client.send(.get, "/").text
            let scriptName = try #require(ConsoleAssets.byName["app.js"]?.asset.hashedName)
            #expect(page.contains(#"<script src="/console/\#(scriptName)" defer></script>"#))
            #expect(page.components(separatedBy: "<script").count == 2)
            #expect(!page.contains("<style"))
            #expect(!page.contains(" style="))
            #expect(!page.contains("onclick"))
            let script = try await client.send(.get, "/console/app.js").text
            #expect(!script.contains("innerHTML"))
            #expect(!script.contains("eval("))
        }
    }

    @Test func refusalsCarryTheSecurityHeadersToo() async throws {
        try await withClient(read: "read-secret") { client in
            let response = try await client.send(.get, "/console/api/flags")
            #expect(response.status == .unauthorized)
            #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test func aSessionSaysWhatTheTokenMayDo() async throws {
        try await withClient(read: "read-secret") { client in
            let admin = try await client.send(.get, "/console/api/session", headers: Self.bearer("admin-secret"))
            #expect(try admin.json.objectValue?["user"]?.objectValue?["name"] == "admin-token")
            #expect(try admin.json.objectValue?["user"]?.objectValue?["role"] == "admin")
            #expect(try admin.json.objectValue?["canWrite"] == true)
            #expect(try admin.json.objectValue?["readOnlyReason"] == .null)
            let read = try await client.send(.get, "/console/api/session", headers: Self.bearer("read-secret"))
            #expect(try read.json.objectValue?["user"]?.objectValue?["name"] == "read-token")
            #expect(try read.json.objectValue?["user"]?.objectValue?["role"] == "read")
            #expect(try read.json.objectValue?["canWrite"] == false)
            let wrong = try await client.send(.get, "/console/api/session", headers: Self.bearer("guess"))
            #expect(wrong.status == .unauthorized)
            #expect(try wrong.json.objectValue?["error"] == "this token is not valid on this server")
            #expect(try await client.send(.get, "/console/api/session").status == .unauthorized)
        }
    }

    @Test func anOpenServerGivesAReadOnlyConsoleThatSaysHowToEnableWrites() async throws {
        try await withClient(admin: nil) { client in
            let session = try await client.send(.get, "/console/api/session")
            #expect(session.status == .ok)
            let json = try session.json.objectValue ?? [:]
            #expect(json["user"]?.objectValue?["source"] == "anonymous")
            #expect(json["canWrite"] == false)
            #expect(json["readOnlyReason"]?.stringValue?.contains("SWITCHBOARD_ADMIN_TOKEN") == true)
            #expect(json["store"]?.objectValue?["kind"] == "file")
            // A token that is not the server's is refused, even where no token is needed.
            #expect(try await client.send(.get, "/console/api/session", headers: Self.bearer("x")).status
                == .unauthorized)
        }
    }

    @Test func listsRowsWithVersionOriginAndMarks() async throws {
        project.write("flags/old.yaml", """
            namespace: old
            flags:
              gone:
                type: bool
                default: true
                expires: 2020-01-01
            """)
        let board = try project.board()
        try board.set("app.upload.max_mb", to: 100, actor: "alice")
        try await withClient(board: board) { client in
            let response = try await client.send(.get, "/console/api/flags", headers: Self.bearer("admin-secret"))
            #expect(response.status == .ok)
            let flags = try response.json.objectValue?["flags"]?.listValue?.compactMap(\.objectValue) ?? []
            let upload = try #require(flags.first { $0["key"] == "app.upload.max_mb" })
            #expect(upload["value"] == 100)
            #expect(upload["layer"] == "runtime")
            #expect(upload["version"] == .int(Int(board.storedOverride("app.upload.max_mb")?.version ?? 0)))
            #expect(upload["origin"]?.stringValue?.hasPrefix("set by alice at ") == true)
            #expect(upload["min"] == 1.0)
            #expect(upload["max"] == 500.0)
            let color = try #require(flags.first { $0["key"] == "app.button_color" })
            #expect(color["version"] == 0)
            let variants = color["variants"]?.listValue?.compactMap(\.objectValue) ?? []
            #expect(variants.map { [$0["name"], $0["value"]] } == [["control", "blue"], ["treatment", "green"]])
            // Each with where its name is written.
            #expect(variants.map { $0["location"]?.stringValue?.hasSuffix("flags/app.yaml:11:17") }.first == true)
            let gone = try #require(flags.first { $0["key"] == "old.gone" })
            #expect(gone["stale"] == true)
            #expect(upload["stale"] == nil)
        }
    }

    @Test func explainsAKeyForAContext() async throws {
        project.write("flags/beta.yaml", """
            namespace: beta
            flags:
              banner:
                type: bool
                default: false
                rules:
                  - when:
                      - { attribute: plan, equals: pro }
                    serve: true
            """)
        try await withClient { client in
            let headers = Self.bearer("admin-secret")
            let plain = try await client.send(.get, "/console/api/flags/beta.banner", headers: headers)
            #expect(try plain.json.objectValue?["flag"]?.objectValue?["value"] == false)
            let pro = try await client.send(.post, "/console/api/flags/beta.banner", headers: headers,
                                            body: .json(#"{"context":{"targetingKey":"u1","plan":"pro"}}"#))
            let json = try pro.json.objectValue ?? [:]
            #expect(json["flag"]?.objectValue?["value"] == true)
            #expect(json["explanation"]?.objectValue?["targeting"]?.stringValue?.isEmpty == false)
            let list = try await client.send(.post, "/console/api/flags", headers: headers,
                                             body: .json(#"{"context":{"plan":"pro"}}"#))
            let banner = try list.json.objectValue?["flags"]?.listValue?.compactMap(\.objectValue)
                .first { $0["key"] == "beta.banner" }
            #expect(banner?["value"] == true)
            #expect(try await client.send(.post, "/console/api/flags", headers: headers, body: .json("[1]")).status
                == .badRequest)
            #expect(try await client.send(.get, "/console/api/flags/beta.banne", headers: headers).status
                == .notFound)
        }
    }

    @Test func writesStillNeedTheAdminTokenOnTheAdminAPI() async throws {
        try await withClient(read: "read-secret") { client in
            let response = try await client.send(.put, "/v1/overrides/app.ratio", headers: Self.bearer("read-secret"),
                                                 body: .json(#"{"value":2}"#))
            #expect(response.status == .forbidden)
        }
        #expect(try project.board().resolve("app.ratio").layer == .default)
    }

    @Test(arguments: [
        ("0.0.0.0", nil, nil, true), ("192.168.1.4", nil, nil, true), ("127.0.0.1", nil, nil, false),
        ("localhost", nil, nil, false), ("::1", nil, nil, false), ("0.0.0.0", "a", nil, false),
        ("0.0.0.0", nil, "r", false),
    ] as [(String, String?, String?, Bool)])
    func knowsWhenItIsOpenBeyondThisMachine(host: String, admin: String?, read: String?, open: Bool) {
        let configuration = ServerConfiguration(host: host, adminToken: admin.flatMap(AccessToken.init),
                                                readToken: read.flatMap(AccessToken.init))
        #expect(configuration.isOpenBeyondThisMachine == open)
    }

    @Test func warnsWhenListeningBeyondLoopbackWithNoToken() async throws {
        let logs = InMemoryLogHandler()
        let server = FlagServer(board: try project.board(),
                                configuration: ServerConfiguration(host: "0.0.0.0", port: 0),
                                logger: recordingLogger(logs))
        _ = try await server.start()
        await server.stop()
        let warnings = logs.entries.filter { $0.level == .warning }.map { "\($0.message)" }
        #expect(warnings.contains { $0.contains("the console and OFREP are open") })
    }

    @Test func theEventStreamSendsChangedRowsAndHealth() async throws {
        let board = try project.board()
        let configuration = ServerConfiguration(adminToken: AccessToken("admin-secret"))
        let server = FlagServer(board: board, configuration: configuration, logger: quietLogger)
        let text = try await server.makeApplication().test(.router) { client in
            async let response = client.send(.get, "/console/api/events", headers: Self.bearer("admin-secret"))
            try await waitUntil("the event stream to subscribe") { server.feed.subscriberCount > 0 }
            try board.set("app.ratio", to: 2, actor: "test")
            project.write("flags/app.yaml", "namespace: app\nflags: {broken: {type: integer, default: 1}}\n")
            board.reload()
            server.feed.finish()
            return try await response.text
        }
        let frames = text.components(separatedBy: "\n\n")
        func data(of frame: String) throws -> [String: Value] {
            guard let line = frame.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) else { return [:] }
            return try Value(json: String(line.dropFirst("data: ".count))).objectValue ?? [:]
        }
        let statuses = try frames.filter { $0.hasPrefix("event: status\n") }.map(data)
        #expect(statuses.first?["status"] == "ok")
        #expect(statuses.last?["status"] == "degraded")
        let changes = try frames.filter { $0.hasPrefix("event: change\n") }.map(data)
        #expect(changes.count == 1)
        let rows = changes.first?["flags"]?.listValue?.compactMap(\.objectValue) ?? []
        #expect(rows.map { $0["key"] } == ["app.ratio"])
        #expect(rows.first?["value"] == 2.0)
        #expect(rows.first?["layer"] == "runtime")
        #expect(rows.first?["version"] == .int(Int(board.storedOverride("app.ratio")?.version ?? 0)))
    }
}
