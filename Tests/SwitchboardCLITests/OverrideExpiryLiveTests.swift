import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard set KEY VALUE --for 3s` against a running `switchboard serve` on a file store: the server serves the
/// override, then, 3 s later and with no write by anyone, the value below it; `switchboard get` agrees, and
/// `switchboard log` and `GET /v1/audit` show the expiry, derived from the one record the store holds.
struct OverrideExpiryLiveTests {
    static let token = "admin-secret"

    /// One request on a fresh connection; the response's body.
    static func body(_ port: Int, _ request: String) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.send(request)
        let response = try await connection.waitUntilClosed()
        return response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    /// The value the server serves for `app.new_flow` over OFREP.
    static func served(_ port: Int) async throws -> Value? {
        let context = #"{"context":{"targetingKey":"user-1"}}"#
        let text = try await body(port, "POST /ofrep/v1/evaluate/flags/app.new_flow HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(context.utf8.count)\r\nConnection: close\r\n\r\n"
            + context)
        return (try? Value(json: text))?.objectValue?["value"]
    }

    @Test func anOverrideSetForThreeSecondsIsGoneThreeSecondsLater() async throws {
        let project = replProject()
        let server = try await ServeProcess(["--flags", project.flags],
                                            environment: ["SWITCHBOARD_ADMIN_TOKEN": Self.token],
                                            log: project.path + "/serve.log")
        defer { server.stop() }
        let cli = { (arguments: [String]) in
            try await onOwnThread { try runSwitchboard(arguments + ["--flags", project.flags]) }
        }

        // The expiry comes from the write's own answer: a `get` after it may already come too late on a loaded machine.
        let set = try await cli(["set", "app.new_flow", "true", "--for", "3s", "--json"])
        #expect(set.status == 0)
        let expiresAt = try #require(try Value(json: set.stdout).objectValue?["expires_at"]?.stringValue)
        let expiry = try #require(Timestamp.parseZoned(expiresAt))
        // Seen while it lasts; on a loaded machine the server's next poll may come after the 3 s: the expiry below
        // is what this test is about.
        try await waitUntil("the server serves the override, unless its time has passed") {
            try await Self.served(server.port) == true || Date().timeIntervalSince1970 >= expiry
        }
        try await waitUntil("the override expires on the server", interval: .milliseconds(20)) {
            try await Self.served(server.port) == false
        }
        let late = Date().timeIntervalSince1970 - expiry
        print("override expiry (file store): served the value below \(Int(late * 1000)) ms after expires_at")
        #expect(late >= -0.05, "never before its time")

        #expect(try await cli(["get", "app.new_flow"]).stdout == "false\n")
        let log = try Value(json: try await cli(["log", "--json"]).stdout).listValue ?? []
        #expect(log.count == 2)
        #expect(log.last?.objectValue?["event"] == "expired")
        #expect(log.last?.objectValue?["time"] == .string(expiresAt))
        let audit = try Value(json: try await Self.body(server.port, "GET /v1/audit HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(Self.token)\r\nConnection: close\r\n\r\n"))
        #expect(audit.objectValue?["records"]?.listValue?.last?.objectValue?["event"] == "expired")
        // An expiry writes nothing: the store's log holds the one write.
        let lines = project.read(".switchboard/audit.jsonl")?.split(separator: "\n") ?? []
        #expect(lines.count == 1)
    }
}
