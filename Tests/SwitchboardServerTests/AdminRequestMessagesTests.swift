import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// What the admin API says about a request it refuses, or reads generously: an example expiry that would itself
/// be accepted, a body with both `value` and `text`, an audit `limit` past any count.
@Suite struct AdminRequestMessagesTests {
    static let admin: HTTPFields = [.authorization: "Bearer admin"]

    @Test func theExpiryExampleIsAnHourAhead() async throws {
        try await withAdminServer { board, client in
            let before = board.clock.now()
            let response = try await client.send(
                .put, "/v1/overrides/app.upload.max_mb", headers: Self.admin,
                body: ByteBuffer(string: #"{"value": 100, "expires_at": "2020-01-01T00:00:00Z"}"#))
            #expect(response.status == .badRequest)
            let hint = try #require(try response.json.objectValue?["hint"]?.stringValue)
            let example = try #require(hint.split(separator: "\"").dropLast().last.map(String.init))
            let moment = try #require(ISO8601DateFormatter().date(from: example), "\(hint)")
            // An hour after the moment the request was answered, to the second (a loaded machine may take seconds).
            let after = board.clock.now()
            #expect(moment.timeIntervalSince1970 >= (before + 3600).rounded(.down))
            #expect(moment.timeIntervalSince1970 <= after + 3600)
        }
    }

    @Test func aBodyWithValueAndTextIsToldToGiveOne() async throws {
        try await withAdminServer { board, client in
            let response = try await client.send(.put, "/v1/overrides/app.upload.max_mb", headers: Self.admin,
                                                 body: ByteBuffer(string: #"{"value": 5, "text": "6"}"#))
            #expect(response.status == .badRequest)
            #expect(try response.json.objectValue?["error"]?.stringValue
                        == #"the body has both "value" and "text"; give one of them"#)
            #expect(board.storedOverride("app.upload.max_mb") == nil)
        }
    }

    // A body that does not parse says where, as OFREP's answer does; a claimed actor that is not a string, or is
    // longer than any name, is refused rather than dropped or cut. Nothing is written.
    @Test(arguments: [
        (#"{"value": 100"#, "the body is not valid JSON: 1:14: "),
        // Which of two would count is up to each reader: neither, here.
        (#"{"text": "dark", "text": "light"}"#,
         #"the body is not valid JSON: 1:18: the key "text" appears twice in this object"#),
        (#"{"value": 100, "actor": 42}"#, "actor must be a string, the name you claim for the audit log, not an int"),
        (#"{"value": 100, "actor": "\#(String(repeating: "a", count: 201))"}"#,
         "actor is at most 200 characters, not 201; nothing was written"),
    ])
    func aBrokenBodyOrClaimIsRefusedAndSaysWhy(body: String, message: String) async throws {
        try await withAdminServer { board, client in
            let response = try await client.send(.put, "/v1/overrides/app.upload.max_mb", headers: Self.admin,
                                                 body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try #require(try response.json.objectValue?["error"]?.stringValue)
            #expect(error.hasPrefix(message), "\(error)")
            #expect(board.storedOverride("app.upload.max_mb") == nil)
        }
    }

    // A method a path does not take is a 405 that names the ones it does, not an empty 404 that reads as "no such
    // key"; nothing is written.
    @Test(arguments: [
        (HTTPRequest.Method.post, "/v1/overrides/app.upload.max_mb", "PUT, DELETE",
         "POST is not allowed here; use PUT or DELETE"),
        (.patch, "/v1/overrides/app.upload.max_mb", "PUT, DELETE", "PATCH is not allowed here; use PUT or DELETE"),
        (.put, "/v1/overrides", "DELETE", "PUT is not allowed here; use DELETE"),
        (.post, "/v1/flags/app.upload.max_mb", "GET", "POST is not allowed here; use GET"),
        (.delete, "/v1/audit", "GET", "DELETE is not allowed here; use GET"),
        (.post, "/v1/usage", "GET", "POST is not allowed here; use GET"),
        (.options, "/v1/flags", "GET", "OPTIONS is not allowed here; use GET"),
        (.trace, "/v1/audit", "GET", "TRACE is not allowed here; use GET"),
        (.trace, "/v1/usage", "GET", "TRACE is not allowed here; use GET"),
    ])
    func aWrongMethodIs405WithWhatThePathTakes(
        method: HTTPRequest.Method, path: String, allow: String, message: String
    ) async throws {
        try await withAdminServer { board, client in
            let response = try await client.send(method, path, headers: Self.admin,
                                                 body: ByteBuffer(string: #"{"value": 100}"#))
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(try response.json.objectValue?["error"]?.stringValue == message)
            #expect(board.storedOverride("app.upload.max_mb") == nil)
        }
    }

    @Test func aLimitPastAnyCountIsEveryRecord() async throws {
        try await withAdminServer { board, client in
            try board.set("app.upload.max_mb", to: .int(50), actor: "test")
            let response = try await client.send(.get, "/v1/audit?limit=99999999999999999999", headers: Self.admin)
            #expect(response.status == .ok)
            #expect(try response.json.objectValue?["records"]?.listValue?.count == 1)
            let refused = try await client.send(.get, "/v1/audit?limit=-3", headers: Self.admin)
            #expect(refused.status == .badRequest)
        }
    }
}
