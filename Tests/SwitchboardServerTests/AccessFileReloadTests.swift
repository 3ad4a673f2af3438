import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// A running server follows its access file: a revoked token is refused without a restart, a new person is let
/// in, and a file that turns invalid leaves the last good one in force and says so in `/healthz`.
@Suite struct AccessFileReloadTests {
    let project = TestProject(fixture: "flags")

    @Test func followsTheFileWithoutARestart() async throws {
        let path = project.file("access.yaml")
        let ana = try AccessFileEditor.add(name: "ana", grant: Grant(role: .admin), toFileAt: path)
        try await LiveServer.with(project, configure: { $0.accessFile = path }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                // The details need a credential on a server whose reads need one: ana's, then bo's once ana goes.
                var reader = ana
                func health() async throws -> [String: Value] {
                    let response = try await client.get("/healthz", headers: [.authorization: "Bearer \(reader)"])
                    return try Value(jsonBytes: response.body.map { Array($0.readableBytesView) } ?? []).objectValue ?? [:]
                }
                func status(_ token: String) async throws -> HTTPResponse.Status {
                    try await client.get("/v1/flags", headers: [.authorization: "Bearer \(token)"]).status
                }
                #expect(try await status(ana) == .ok)
                // Polled through /healthz's count of people: polling with a token the server does not know yet
                // would be failed sign-ins, and ten of them shut the address out for a minute.
                func people() async throws -> Value? { try await health()["accessFile"]?.objectValue?["people"] }
                let bo = try AccessFileEditor.add(name: "bo", grant: Grant(role: .read), toFileAt: path)
                try await waitUntil("the file with bo is in force") { try await people() == 2 }
                #expect(try await status(bo) == .ok)
                reader = bo

                try AccessFileEditor.revoke(name: "ana", inFileAt: path)
                try await waitUntil("the file without ana is in force") { try await people() == 1 }
                #expect(try await status(ana) == .unauthorized)

                // An invalid file: the last good one stays, and the health document says why.
                let good = try #require(project.read("access.yaml"))
                project.write("access.yaml", good + "  - nme: x\n")
                try await waitUntil("the health document reports the file") {
                    try await health()["accessFile"]?.objectValue?["error"] != nil
                }
                let document = try await health()
                #expect(document["status"] == "degraded")
                #expect(document["accessFile"]?.objectValue?["error"]?.stringValue?.contains("unknown field 'nme'") == true)
                #expect(try await status(bo) == .ok)

                project.write("access.yaml", good)
                try await waitUntil("the mended file is in force") {
                    try await health()["status"] == "ok"
                }
                // Without a credential, the status alone: no path, no error text.
                let anonymous = try await client.get("/healthz")
                let short = try Value(jsonBytes: anonymous.body.map { Array($0.readableBytesView) } ?? []).objectValue
                #expect(short.map { Set($0.keys) } == ["status", "revision", "definitions", "version"])
            }
        }
    }

    @Test func refusesToStartWithAnInvalidFile() async throws {
        let path = project.write("access.yaml", "people:\n  - name: ana\n    role: admin\n")
        var configuration = ServerConfiguration(port: 0)
        configuration.accessFile = path
        let server = FlagServer(board: try project.board(), configuration: configuration, logger: quietLogger)
        #expect(server.port == nil)
        await #expect {
            try await server.start()
        } throws: { error in
            "\(error)".contains("access.yaml:2:5: error: 'ana' has no token_sha256")
        }
    }
}
