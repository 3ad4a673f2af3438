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

    static func definitions(at: String) -> String {
        """
        namespace: app
        flags:
          launch:
            type: bool
            default: false
            schedule:
              - { at: "\(at)", serve: true }
        """
    }

    @Test func aStepAheadReachesEveryFaceWithNoWrite() async throws {
        // The server starts with the step far ahead; the step is moved to a few seconds from now once it listens,
        // so a slow start cannot let the step pass before the server is there to see it.
        let project = makeProject(definitions: Self.definitions(at: "2099-01-01T00:00:00Z"))
        let server = try await ServeProcess(["--flags", project.flags], log: project.path + "/serve.log")
        defer { server.stop() }
        let stream = try RawConnection(port: server.port)
        stream.send(RawConnection.eventStreamRequest)
        _ = try await stream.waitFor("retry: 1000")
        let step = (Date().timeIntervalSince1970 + 4).rounded(.up)
        let at = StoredOverride.time(secondsSinceEpoch: step)
        project.write("flags/app.yaml", Self.definitions(at: at))
        // Reloaded: the bulk answer announces the step (or, on a very slow machine, the step has passed already).
        var announced = false
        try await waitUntil("the edited schedule loaded") {
            let body = try await Self.bulk(server.port).body
            announced = body.contains(at)
            return announced || body.contains(#""value":true"#)
        }
        let before = try await Self.bulk(server.port)
        #expect(announced || !before.body.contains(#""value":false"#))
        let tag = try #require(before.headers.components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("etag:") }.map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) })
        // Checked only while the step is surely ahead.
        if Date().timeIntervalSince1970 < step - 1 {
            #expect(before.body.contains(#""value":false"#))
            #expect(before.body.contains(#""switchboard.next_value":true"#))
            #expect(try runSwitchboard(["get", "app.launch", "--flags", project.flags]).stdout == "false\n")
            #expect(try await Self.bulk(server.port, ifNoneMatch: tag).status.contains("304"))
        }
        // The step: the new value over OFREP, a 200 for the old tag, and (after the reload's) a change notice.
        try await waitUntil("the step's value over OFREP") {
            try await Self.single(server.port).contains(#""value":true"#)
        }
        if announced {
            try await waitUntil("the step's notice on the event stream") {
                stream.received.components(separatedBy: "refetchEvaluation").count - 1 >= 2
            }
        }
        let after = try await Self.bulk(server.port, ifNoneMatch: tag)
        #expect(after.status.contains("200"))
        #expect(after.headers.lowercased().contains("cache-control: no-cache"))
        #expect(after.body.contains(#""value":true"#))
        #expect(try runSwitchboard(["get", "app.launch", "--flags", project.flags]).stdout == "true\n")
    }
}
