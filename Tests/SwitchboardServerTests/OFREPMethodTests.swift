import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// A method an OFREP path does not take is answered 405 with `Allow`, not with a 404 that reads as "no such flag".
@Suite struct OFREPMethodTests {
    let project = TestProject(fixture: "flags")

    @Test(arguments: [
        (HTTPRequest.Method.get, "/ofrep/v1/evaluate/flags/app.new_flow", "POST"),
        (.put, "/ofrep/v1/evaluate/flags/app.new_flow", "POST"),
        (.delete, "/ofrep/v1/evaluate/flags/app.nope", "POST"),
        (.get, "/ofrep/v1/evaluate/flags", "POST"),
        (.patch, "/ofrep/v1/evaluate/flags", "POST"),
        (.post, "/ofrep/v1/events", "GET"),
    ])
    func answers405WithAllow(method: HTTPRequest.Method, path: String, allow: String) async throws {
        let server = FlagServer(board: try project.board())
        try await server.makeApplication().test(.router) { client in
            let response = try await client.send(method, path)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(try response.json == [
                "errorCode": "GENERAL", "errorDetails": .string("\(method) is not allowed here; use \(allow)"),
            ])
        }
    }

    @Test func headIsRefusedWithoutABody() async throws {
        let server = FlagServer(board: try project.board())
        try await server.makeApplication().test(.router) { client in
            let response = try await client.send(.head, "/ofrep/v1/evaluate/flags/app.new_flow")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
        }
    }
}
