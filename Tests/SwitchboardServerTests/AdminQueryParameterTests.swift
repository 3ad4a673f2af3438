import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The admin API's writes take only the query parameters they know: `dry_run` spelt any other way, a misspelt
/// parameter, or `dry_run` on a `DELETE` is refused with 400 and nothing is written, so a try is never made for
/// real.
@Suite struct AdminQueryParameterTests {
    static let admin: HTTPFields = [.authorization: "Bearer admin"]

    @Test(arguments: ["dry_run=yes", "dry_run=True", "dry_run", "dryrun=1", "dry-run=1", "dry_run=1&force=1"])
    func aPutWithAQueryItDoesNotKnowWritesNothing(query: String) async throws {
        try await withAdminServer { board, client in
            let response = try await client.send(.put, "/v1/overrides/app.upload.max_mb?\(query)", headers: Self.admin,
                                                 body: ByteBuffer(string: #"{"value": 100}"#))
            #expect(response.status == .badRequest)
            #expect(try response.json.objectValue?["error"]?.stringValue?.contains("nothing was written") == true)
            #expect(board.storedOverride("app.upload.max_mb") == nil)
            #expect(try board.auditLog().isEmpty)
        }
    }

    @Test func aMisspeltDryRunIsNamed() async throws {
        try await withAdminServer { _, client in
            let response = try await client.send(.put, "/v1/overrides/app.upload.max_mb?dryrun=1", headers: Self.admin,
                                                 body: ByteBuffer(string: #"{"value": 100}"#))
            #expect(try response.json.objectValue?["hint"]?.stringValue == "did you mean 'dry_run'?")
        }
    }

    @Test(arguments: ["0", "false"])
    func dryRunZeroOrFalseIsARealWrite(flag: String) async throws {
        try await withAdminServer { board, client in
            let response = try await client.send(.put, "/v1/overrides/app.upload.max_mb?dry_run=\(flag)",
                                                 headers: Self.admin, body: ByteBuffer(string: #"{"value": 100}"#))
            #expect(response.status == .ok)
            #expect(board.int("app.upload.max_mb", default: 0) == 100)
        }
    }

    @Test(arguments: ["/v1/overrides/app.upload.max_mb?dry_run=1", "/v1/overrides?dry_run=1",
                      "/v1/overrides?dryrun=1", "/v1/overrides/app.upload.max_mb?actr=ana"])
    func aDeleteWithAQueryItDoesNotKnowRemovesNothing(path: String) async throws {
        try await withAdminServer { board, client in
            try board.set("app.upload.max_mb", to: .int(50), actor: "test")
            let response = try await client.send(.delete, path, headers: Self.admin)
            #expect(response.status == .badRequest)
            #expect(board.int("app.upload.max_mb", default: 0) == 50)
            #expect(try board.auditLog().count == 1)
        }
    }

    @Test func aDeleteWithTheActorItClaimsRemoves() async throws {
        try await withAdminServer { board, client in
            try board.set("app.upload.max_mb", to: .int(50), actor: "test")
            let response = try await client.send(.delete, "/v1/overrides/app.upload.max_mb?actor=ana",
                                                 headers: Self.admin)
            #expect(response.status == .ok)
            #expect(board.storedOverride("app.upload.max_mb") == nil)
        }
    }
}
