import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Prometheus
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// People with their own tokens: roles and namespaces on every write route, the verified name in the audit, OFREP
/// closed unless the file opens it, and the built-in tokens still working.
@Suite struct PeopleAndRolesTests {
    let project = TestProject(fixture: "flags")
    /// name → token, as `access add` printed them.
    let tokens: [String: String]

    init() throws {
        project.write("flags/checkout.yaml", """
            namespace: checkout
            flags:
              new_flow:
                type: bool
                default: false
            """)
        let path = project.file("access.yaml")
        var tokens: [String: String] = [:]
        tokens["writer"] = try AccessFileEditor.add(name: "writer", grant: Grant(role: .write, namespaces: ["checkout"]),
                                                    toFileAt: path)
        tokens["reader"] = try AccessFileEditor.add(name: "reader", grant: Grant(role: .read), toFileAt: path)
        tokens["boss"] = try AccessFileEditor.add(name: "boss", grant: Grant(role: .admin), toFileAt: path)
        self.tokens = tokens
    }

    private func withClient(
        admin: String? = nil, logs: InMemoryLogHandler = InMemoryLogHandler(),
        _ test: @escaping @Sendable (any TestClientProtocol, Board) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(adminToken: admin.flatMap(AccessToken.init),
                                                prometheus: PrometheusCollectorRegistry())
        configuration.accessFile = project.file("access.yaml")
        let board = try project.board()
        let server = FlagServer(board: board, configuration: configuration, logger: recordingLogger(logs))
        try await server.makeApplication().test(.router) { client in try await test(client, board) }
    }

    private func bearer(_ name: String) -> HTTPFields { [.authorization: "Bearer \(tokens[name]!)"] }

    @Test func aWriterWritesItsNamespacesOnlyAndTheAuditNamesIt() async throws {
        try await withClient { client, board in
            let allowed = try await client.send(.put, "/v1/overrides/checkout.new_flow", headers: bearer("writer"),
                                                body: .json(#"{"value": true, "actor": "mallory"}"#))
            #expect(allowed.status == .ok)
            let refused = try await client.send(.put, "/v1/overrides/app.theme", headers: bearer("writer"),
                                                body: .json(#"{"value": {"dark": true}}"#))
            #expect(refused.status == .forbidden)
            #expect(try refused.json.objectValue?["error"] == .string("writer may not change app.theme: 'app.theme' is "
                + "outside the namespaces this role may write ('checkout')"))
            #expect(try await client.send(.delete, "/v1/overrides/app.ratio", headers: bearer("writer")).status
                == .forbidden)
            #expect(try await client.send(.delete, "/v1/overrides", headers: bearer("writer")).status == .forbidden)
            #expect(board.resolve("app.theme").layer == .default)

            let audit = try await client.send(.get, "/v1/audit", headers: bearer("reader"))
            #expect(audit.status == .ok)
            let record = try #require(audit.json.objectValue?["records"]?.listValue?.last?.objectValue)
            #expect(record["actor"] == "writer")
            #expect(record["claimed_actor"] == "mallory")
            #expect(record["verified"] == true)
        }
    }

    /// The server's log says who wrote which key, and who tried to write beyond their role, without the values.
    @Test func writesAndRefusedWritesAreLogged() async throws {
        let logs = InMemoryLogHandler()
        try await withClient(logs: logs) { client, _ in
            _ = try await client.send(.put, "/v1/overrides/checkout.new_flow", headers: bearer("writer"),
                                      body: .json(#"{"value": true}"#))
            _ = try await client.send(.put, "/v1/overrides/app.theme", headers: bearer("writer"),
                                      body: .json(#"{"value": {"dark": true}}"#))
            _ = try await client.send(.delete, "/v1/overrides", headers: bearer("writer"))
            _ = try await client.send(.delete, "/v1/overrides/checkout.new_flow", headers: bearer("boss"))
        }
        let lines = logs.entries.map { "\($0.message)" }
        #expect(lines.contains("writer set checkout.new_flow (version 1)"), "\(lines)")
        #expect(lines.contains("refused a write: writer may not change app.theme: 'app.theme' is outside the "
                                + "namespaces this role may write ('checkout')"), "\(lines)")
        #expect(lines.contains("refused a write: writer may not remove every override: only the role 'admin' may"),
                "\(lines)")
        #expect(lines.contains("boss removed the override of checkout.new_flow"), "\(lines)")
    }

    @Test func aReaderReadsEverythingAndWritesNothing() async throws {
        try await withClient { client, board in
            for uri in ["/v1/flags", "/v1/flags/app.ratio", "/v1/audit", "/console/api/session", "/console/api/flags"] {
                #expect(try await client.send(.get, uri, headers: bearer("reader")).status == .ok, "\(uri)")
            }
            for (method, uri) in [(HTTPRequest.Method.put, "/v1/overrides/app.ratio"),
                                  (.put, "/v1/overrides/app.ratio?dry_run=1"),
                                  (.delete, "/v1/overrides/app.ratio"), (.delete, "/v1/overrides")] {
                let response = try await client.send(method, uri, headers: bearer("reader"), body: .json(#"{"value":2}"#))
                #expect(response.status == .forbidden, "\(method) \(uri)")
            }
            #expect(try board.auditLog().isEmpty)
        }
    }

    @Test func anAdminResetsEverything() async throws {
        try await withClient { client, board in
            try board.set("app.ratio", to: 2.0, actor: "test")
            try board.set("checkout.new_flow", to: true, actor: "test")
            let response = try await client.send(.delete, "/v1/overrides", headers: bearer("boss"))
            #expect(response.status == .ok)
            #expect(board.resolve("app.ratio").layer == .default)
            #expect(board.resolve("checkout.new_flow").layer == .default)
            #expect(try board.auditLog().suffix(2).map(\.actor) == ["boss", "boss"])
        }
    }

    @Test func ofrepNeedsATokenUnlessTheFileOpensIt() async throws {
        try await withClient { client, _ in
            let none = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio", body: emptyContext)
            #expect(none.status == .unauthorized)
            let reader = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio",
                                               headers: [HTTPField.Name("X-API-Key")!: tokens["reader"]!],
                                               body: emptyContext)
            #expect(reader.status == .ok)
            #expect(try await client.send(.get, "/console/api/session").status == .unauthorized)
        }
        let text = try #require(project.read("access.yaml"))
        project.write("access.yaml", text + "anonymous_read: true\n")
        try await withClient { client, _ in
            let none = try await client.send(.post, "/ofrep/v1/evaluate/flags/app.ratio", body: emptyContext)
            #expect(none.status == .ok)
            // The console and the admin API still need a token.
            #expect(try await client.send(.get, "/console/api/session").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/flags").status == .unauthorized)
        }
    }

    @Test func theBuiltInAdminTokenIsThePersonAdminToken() async throws {
        try await withClient(admin: "admin-secret") { client, board in
            let response = try await client.send(.put, "/v1/overrides/app.ratio",
                                                 headers: [.authorization: "Bearer admin-secret"],
                                                 body: .json(#"{"value": 2, "actor": "alice"}"#))
            #expect(response.status == .ok)
            #expect(try board.auditLog().last?.actor == "admin-token")
            #expect(try board.auditLog().last?.claimedActor == "alice")
        }
    }

    @Test func theConsoleSaysWhoIsSignedInAndWhatTheyMayWrite() async throws {
        try await withClient { client, _ in
            let session = try await client.send(.get, "/console/api/session", headers: bearer("writer"))
            let json = try session.json.objectValue ?? [:]
            #expect(json["user"] == ["name": "writer", "role": "write", "namespaces": ["checkout"], "source": "token",
                                     "expiresAt": .null])
            #expect(json["canWrite"] == true)
            let list = try await client.send(.get, "/console/api/flags", headers: bearer("writer"))
            let rows = try list.json.objectValue?["flags"]?.listValue ?? []
            let readOnly = rows.compactMap(\.objectValue).filter { $0["readOnly"] == true }.compactMap { $0["key"]?.stringValue }
            #expect(!readOnly.isEmpty)
            #expect(readOnly.allSatisfy { $0.hasPrefix("app.") })
            let reader = try await client.send(.get, "/console/api/session", headers: bearer("reader"))
            #expect(try reader.json.objectValue?["readOnlyReason"] == .string("Read-only: reader has the role 'read'. "
                + "Ask an admin for the role 'write' to change values."))
        }
    }
}
