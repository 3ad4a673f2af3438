import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `ETag` and `If-Match` on the admin API: two people toggling at once never silently overwrite each other.
@Suite struct AdminCompareAndSetTests {
    let project = TestProject(fixture: "flags")

    private func withClient(
        board: Board, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = ServerConfiguration(adminToken: AccessToken("admin-secret"))
        let server = FlagServer(board: board, configuration: configuration)
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil,
        ifMatch: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer admin-secret"]
        if let ifMatch { headers[.ifMatch] = ifMatch }
        return try await client.send(method, uri, headers: headers, body: body.map(ByteBuffer.json))
    }

    @Test func everyResponseCarriesTheOverridesVersion() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let before = try await send(client, .get, "/v1/flags/app.upload.max_mb")
            #expect(before.headers[.eTag] == "\"0\"")
            let put = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 100}"#)
            #expect(put.status == .ok)
            let version = try #require(board.storedOverride("app.upload.max_mb")?.version)
            #expect(put.headers[.eTag] == "\"\(version)\"")
            let read = try await send(client, .get, "/v1/flags/app.upload.max_mb")
            #expect(read.headers[.eTag] == "\"\(version)\"")
            let list = try await send(client, .get, "/v1/flags")
            #expect(list.headers[.eTag] == "\"\(board.storeVersion)\"")
        }
    }

    @Test func aStaleIfMatchIsRefusedWith412AndWritesNothing() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let first = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 100}"#,
                                       ifMatch: "\"0\"")
            #expect(first.status == .ok)
            let tag = try #require(first.headers[.eTag])
            // Someone else writes first, with the same tag: refused.
            let stale = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 200}"#,
                                       ifMatch: "\"0\"")
            #expect(stale.status == .preconditionFailed)
            #expect(board.int("app.upload.max_mb", default: 0) == 100)
            let fresh = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 300}"#,
                                       ifMatch: tag)
            #expect(fresh.status == .ok)
            let staleDelete = try await send(client, .delete, "/v1/overrides/app.upload.max_mb", ifMatch: tag)
            #expect(staleDelete.status == .preconditionFailed)
            #expect(board.int("app.upload.max_mb", default: 0) == 300)
            let freshTag = fresh.headers[.eTag]
            #expect(freshTag != nil)
            let delete = try await send(client, .delete, "/v1/overrides/app.upload.max_mb", ifMatch: freshTag)
            #expect(delete.status == .ok)
            #expect(delete.headers[.eTag] == "\"0\"")
        }
        #expect(try board.auditLog().count == 3)
    }

    @Test func racingWritersWithOneTagHaveOneWinner() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: "{\"value\": \(n + 1)}",
                                       ifMatch: "\"0\"").status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count(where: { $0 == .ok }) == 1)
            #expect(statuses.count(where: { $0 == .preconditionFailed }) == 7)
        }
        #expect(try board.auditLog().count == 1)
    }

    @Test func aMalformedIfMatchIsABadRequest() async throws {
        try await withClient(board: try project.board()) { client in
            let response = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 1}"#,
                                          ifMatch: "yesterday")
            #expect(response.status == .badRequest)
        }
    }

    // Another process writes (here a second board on the same store, which the server's board has not polled yet):
    // the server's next write with the tag it handed out is refused, and the 412 carries the version that refused
    // it, which the next GET also shows, so the retry the hint suggests succeeds.
    @Test func a412CarriesTheCurrentVersionAfterAWriteElsewhere() async throws {
        let board = try project.board()
        let elsewhere = try project.board()
        try await withClient(board: board) { client in
            let before = try await send(client, .get, "/v1/flags/app.upload.max_mb")
            try elsewhere.set("app.upload.max_mb", to: 77, actor: "bob")
            let current = try #require(elsewhere.storedOverride("app.upload.max_mb")?.version)
            let stale = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 100}"#,
                                       ifMatch: before.headers[.eTag])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.headers[.eTag] == "\"\(current)\"")
            let read = try await send(client, .get, "/v1/flags/app.upload.max_mb")
            #expect(read.headers[.eTag] == "\"\(current)\"")
            #expect(String(buffer: read.body).contains("\"value\":77"))
            let retry = try await send(client, .put, "/v1/overrides/app.upload.max_mb", body: #"{"value": 100}"#,
                                       ifMatch: read.headers[.eTag])
            #expect(retry.status == .ok)
        }
    }

    // A PUT answers with its own write, even when another writer wrote the key right after it: its value, and the
    // version of the audit record it made (each writer sends a value of its own, so no answer can borrow another
    // write's). A PUT that changes nothing keeps the override's version.
    @Test func aPutAnswersWithItsOwnWrite() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            typealias Answer = (sent: Int, body: String, tag: String?)
            let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
                for n in 1...60 {
                    group.addTask {
                        let put = try await send(client, .put, "/v1/overrides/app.upload.max_mb",
                                                 body: "{\"value\": \(n)}")
                        return (n, String(buffer: put.body), put.headers[.eTag])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let records = try board.auditLog()
            for answer in answers {
                #expect(answer.body.contains("\"value\":\(answer.sent)"))
                let version = try #require(answer.tag.flatMap { UInt64($0.dropFirst().dropLast()) })
                let record = records.first { $0.version == version }
                #expect(record?.new == .int(answer.sent))
            }
            let stored = try #require(board.storedOverride("app.upload.max_mb"))
            let same = try await send(client, .put, "/v1/overrides/app.upload.max_mb",
                                      body: "{\"value\": \(stored.value.json)}")
            #expect(same.headers[.eTag] == "\"\(stored.version)\"")
        }
    }
}
