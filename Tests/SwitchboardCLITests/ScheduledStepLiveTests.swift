import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A schedule step a few seconds ahead, against a real `switchboard serve`: with no write by anyone, the step
/// reaches OFREP (a client holding the old bulk ETag gets 200 and the new value), the event stream, and
/// `switchboard get`.
struct ScheduledStepLiveTests {
    /// One raw HTTP/1.1 exchange on a fresh connection: the status line, the headers and the body.
    static func exchange(_ port: Int, _ request: String) async throws -> (status: String, headers: String, body: String) {
        let connection = try RawConnection(port: port)
        connection.send(request)
        let response = try await connection.waitUntilClosed()
        let parts = response.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        return (head.components(separatedBy: "\r\n").first ?? "", head, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func bulk(_ port: Int, ifNoneMatch tag: String? = nil) async throws -> (status: String, headers: String, body: String) {
        let body = #"{"context":{"targetingKey":"user-1"}}"#
        return try await exchange(port, "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            + (tag.map { "If-None-Match: \($0)\r\n" } ?? "") + "\r\n" + body)
    }

    static func single(_ port: Int) async throws -> String {
        let body = #"{"context":{"targetingKey":"user-1"}}"#
        return try await exchange(port, "POST /ofrep/v1/evaluate/flags/app.launch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            + body).body
    }

    @Test func aStepAheadReachesEveryFaceWithNoWrite() async throws {
        let step = (Date().timeIntervalSince1970 + 6).rounded(.up)
        let at = StoredOverride.time(secondsSinceEpoch: step)
        let project = makeProject(definitions: """
            namespace: app
            flags:
              launch:
                type: bool
                default: false
                schedule:
                  - { at: "\(at)", serve: true }
            """)
        let server = try await ServeProcess(["--flags", project.flags], log: project.path + "/serve.log")
        defer { server.stop() }
        let stream = try RawConnection(port: server.port)
        stream.send(RawConnection.eventStreamRequest)
        _ = try await stream.waitFor("retry: 1000")
        let before = try await Self.bulk(server.port)
        let tag = try #require(before.headers.components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("etag:") }.map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) })
        // Checked only while the step is surely ahead: a slow machine may start the server late.
        if Date().timeIntervalSince1970 < step - 1 {
            #expect(before.body.contains(#""value":false"#))
            #expect(try await Self.single(server.port).contains(#""value":false"#))
            #expect(try runSwitchboard(["get", "app.launch", "--flags", project.flags]).stdout == "false\n")
            #expect(try await Self.bulk(server.port, ifNoneMatch: tag).status.contains("304"))
        }
        // The step: a change notice on the stream, the new value over OFREP, a 200 for the old tag.
        _ = try await stream.waitFor("refetchEvaluation")
        try await waitUntil("the step's value over OFREP") {
            try await Self.single(server.port).contains(#""value":true"#)
        }
        let after = try await Self.bulk(server.port, ifNoneMatch: tag)
        #expect(after.status.contains("200"))
        #expect(after.headers.lowercased().contains("cache-control: no-cache"))
        #expect(after.body.contains(#""value":true"#))
        #expect(try runSwitchboard(["get", "app.launch", "--flags", project.flags]).stdout == "true\n")
    }
}
