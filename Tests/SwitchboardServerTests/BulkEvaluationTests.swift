import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `POST /ofrep/v1/evaluate/flags` through the router: every flag, the ETag, and `If-None-Match`.
@Suite struct BulkEvaluationTests {
    let project = TestProject(fixture: "flags")

    private func withClient(
        board: Board? = nil, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = FlagServer(board: try board ?? project.board())
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    private func evaluateAll(
        _ client: any TestClientProtocol, ifNoneMatch: [String] = [], body: ByteBuffer = emptyContext
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        for value in ifNoneMatch { headers.append(HTTPField(name: .ifNoneMatch, value: value)) }
        return try await client.send(.post, "/ofrep/v1/evaluate/flags", headers: headers, body: body)
    }

    @Test func evaluatesEveryFlagAndAdvertisesTheEventStream() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let response = try await evaluateAll(client)
            #expect(response.status == .ok)
            let json = try response.json.objectValue ?? [:]
            let flags = json["flags"]?.listValue ?? []
            #expect(flags.compactMap { $0.objectValue?["key"]?.stringValue } == board.registry.keys)
            #expect(flags.first == [
                "key": "app.new_flow", "value": false, "reason": "STATIC", "variant": "", "metadata": [:],
            ])
            #expect(json["eventStreams"] == [
                ["type": "sse", "endpoint": ["requestUri": "/ofrep/v1/events"], "inactivityDelaySec": 120],
            ])
        }
    }

    @Test func tagsTheBodyAndAnswers304WhenTheTagMatches() async throws {
        try await withClient { client in
            let first = try await evaluateAll(client)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            #expect(try await evaluateAll(client).headers[.eTag] == tag)

            for header in [tag, "W/\(tag)", "\"stale\", \(tag)", "*"] {
                let response = try await evaluateAll(client, ifNoneMatch: [header])
                #expect(response.status == .notModified, "If-None-Match: \(header)")
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
            }
            #expect(try await evaluateAll(client, ifNoneMatch: ["\"stale\"", tag]).status == .notModified)
            #expect(try await evaluateAll(client, ifNoneMatch: ["\"stale\""]).status == .ok)
        }
    }

    @Test func changesTheTagWhenAValueChanges() async throws {
        let board = try project.board()
        try await withClient(board: board) { client in
            let before = try #require(try await evaluateAll(client).headers[.eTag])
            try board.set("app.new_flow", to: true, actor: "test")
            let response = try await evaluateAll(client, ifNoneMatch: [before])
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] != before)
        }
    }

    @Test func tagsNameTheContextSoA304IsNeverAnotherContexts() async throws {
        try await withClient { client in
            let anonymous = try #require(try await evaluateAll(client).headers[.eTag])
            let body = ByteBuffer.json(#"{"context":{"targetingKey":"u1"}}"#)
            let someone = try await evaluateAll(client, ifNoneMatch: [anonymous], body: body)
            // The tag is derived from the revision and the request, not the answer: another context never
            // matches, even when it would get the same flags.
            #expect(someone.status == .ok)
            #expect(someone.headers[.eTag] != anonymous)
            let again = try await evaluateAll(client, ifNoneMatch: [try #require(someone.headers[.eTag])], body: body)
            #expect(again.status == .notModified)
        }
    }

    @Test(arguments: ["{", #"{"context":7}"#])
    func refusesAMalformedBodyWith400(body: String) async throws {
        try await withClient { client in
            let response = try await evaluateAll(client, body: .json(body))
            #expect(response.status == .badRequest)
            let json = try response.json.objectValue ?? [:]
            #expect(json["errorCode"] != nil)
            #expect(json["errorDetails"] != nil)
            #expect(json["key"] == nil)
        }
    }

    @Test func refusesABodyOverTheLimitWith413() async throws {
        let server = FlagServer(board: try project.board(), configuration: ServerConfiguration(maxBodyBytes: 16))
        try await server.makeApplication().test(.router) { client in
            let response = try await evaluateAll(client, body: .json(#"{"context":{"targetingKey":"user-1"}}"#))
            #expect(response.status == .contentTooLarge)
        }
    }
}
