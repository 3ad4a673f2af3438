import Foundation
import SwitchboardTestSupport
import Testing

/// The OFREP sample answer the README and the server article print is the one `switchboard serve` gives on the
/// shipped `flags/`: the request is read from the document and sent to a real server, and the answer compared.
@Suite struct OFREPSampleTests {
    /// The sample in a document: the `curl` line's path, its `-d` body, and the answer on the line after.
    struct Sample {
        var path: String
        var body: String
        var answer: String

        init(document: String) throws {
            let lines = try String(contentsOfFile: Repository.path(document), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let curl = try #require(lines.firstIndex { $0.hasPrefix("curl -X POST localhost:8016/ofrep/") })
            path = try #require(lines[curl].split(separator: " ").first { $0.hasPrefix("localhost:8016/") })
                .dropFirst("localhost:8016".count).description
            let data = lines[curl + 1].trimmingCharacters(in: .whitespaces)
            try #require(data.hasPrefix("-d '") && data.hasSuffix("'"), "\(data)")
            body = String(data.dropFirst(4).dropLast())
            answer = lines[curl + 2]
        }
    }

    @Test(arguments: ["README.md", "Sources/SwitchboardServer/Documentation.docc/RunningTheServer.md"])
    func theDocumentedAnswerIsTheServedOne(document: String) async throws {
        let sample = try Sample(document: document)
        let project = TestProject(copyingFlags: Repository.path("flags"), prefix: "switchboard-cli-test")
        let server = try await ServeProcess(["--flags", project.flags], log: project.path + "/serve.log")
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("POST \(sample.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(sample.body.utf8.count)\r\nConnection: close\r\n\r\n\(sample.body)")
        let response = try await connection.waitUntilClosed()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(response)")
        let answer = try #require(response.components(separatedBy: "\r\n\r\n").last)
        #expect(answer == sample.answer)
    }
}
