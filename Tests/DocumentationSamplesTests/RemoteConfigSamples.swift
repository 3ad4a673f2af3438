import Foundation
import Switchboard
import SwitchboardRemote
import SwitchboardServer
import Testing
import SwitchboardTestSupport

/// The samples of "Remote config": a `RemoteBoard` on a server started in this process.
@Suite struct RemoteConfigSamples {
    @Test func aRemoteBoard() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let server = FlagServer(board: try Board(directory: flags), configuration: ServerConfiguration(port: 0))
        let port = try await server.start()
        let cachesFolder = project.path + "/cache"
        let serverURL = "http://127.0.0.1:\(port)"

        let remote = RemoteBoard(try RemoteConfiguration(
            baseURL: serverURL,                                            // or OFREP_ENDPOINT
            context: EvaluationContext(targetingKey: "user-42", attributes: ["plan": "pro"]),
            cacheDirectory: cachesFolder))                                 // nil: no offline start

        #expect(await remote.waitUntilSettled())
        let limit = remote.int("app.upload.max_mb", default: 25)          // never blocks, never throws
        let details = remote.details("app.upload.max_mb", default: 25)    // .reason (CACHED offline), .errorCode
        remote.setContext(EvaluationContext(targetingKey: "user-7"))      // signed in as someone else: refetches
        #expect(limit == 25 && details.errorCode == nil)

        await remote.stop()
        await server.stop()
    }

    @Test func codeForEitherBoard() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags)
        #expect(uploadLimitText(from: board) == "25 MB")
    }
}

/// Code that reads flags from a local or a remote board alike.
func uploadLimitText(from flags: some FlagReader) -> String {
    "\(flags.value(Keys.uploadLimit)) MB"
}

#if canImport(Darwin)
// The URLSession transport of "Remote config": Linux's Foundation has no URLSession.bytes(for:), so this compiles on
// Apple platforms only.
struct URLSessionTransport: RemoteTransport {
    var session = URLSession.shared

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let (data, response) = try await session.data(for: urlRequest(request))
        return RemoteResponse(status: (response as! HTTPURLResponse).statusCode,
                              headers: headers(response), body: Array(data))
    }

    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        let (bytes, response) = try await session.bytes(for: urlRequest(request))
        let body = AsyncThrowingStream<[UInt8], any Error> { continuation in
            let task = Task {
                do {
                    for try await byte in bytes { continuation.yield([byte]) }
                    continuation.finish()
                } catch { continuation.finish(throwing: error) }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return RemoteStreamResponse(status: (response as! HTTPURLResponse).statusCode,
                                    headers: headers(response), body: body)
    }

    private func urlRequest(_ request: RemoteRequest) -> URLRequest {
        var out = URLRequest(url: URL(string: request.url)!)
        out.httpMethod = request.method
        out.timeoutInterval = Double(request.timeout.components.seconds)
        for (name, value) in request.headers { out.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { out.httpBody = Data(request.body) }
        return out
    }

    private func headers(_ response: URLResponse) -> [String: String] {
        ((response as? HTTPURLResponse)?.allHeaderFields ?? [:])
            .reduce(into: [:]) { $0["\($1.key)"] = "\($1.value)" }
    }
}

/// The transport in use, as the article shows it.
func remoteBoardOnURLSession(_ configuration: RemoteConfiguration) -> RemoteBoard {
    let remote = RemoteBoard(configuration, transport: URLSessionTransport())
    return remote
}
#endif
