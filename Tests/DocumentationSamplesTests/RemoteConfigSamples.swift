import AsyncHTTPClient
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

/// The samples of "Remote config" about starting offline, the transport's client, and device-local overrides
/// ("Preferences in your app"), each against a server started in this process.
@Suite struct RemoteFaultSamples {
    @Test func settled() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let server = FlagServer(board: try Board(directory: flags), configuration: ServerConfiguration(port: 0))
        let port = try await server.start()
        let serverURL = "http://127.0.0.1:\(port)"
        let cachesFolder = project.path + "/cache"

        let remote = RemoteBoard(try RemoteConfiguration(
            baseURL: serverURL, context: EvaluationContext(targetingKey: "user-42"),
            cacheDirectory: cachesFolder))
        await remote.waitUntilSettled()           // at once with a cache: the values of the last run, reason CACHED
        if remote.value(Flags.Checkout.newFlow) { showNewCheckout() }

        await remote.stop()
        await server.stop()
    }

    @Test func transports() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let server = FlagServer(board: try Board(directory: flags), configuration: ServerConfiguration(port: 0))
        let port = try await server.start()
        let configuration = try RemoteConfiguration(baseURL: "http://127.0.0.1:\(port)")

        let quick = RemoteBoard(configuration, transport: HTTPClientTransport(connectTimeout: .seconds(1)))
        #expect(await quick.waitUntilSettled())
        await quick.stop()

        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: HTTPClientTransport.clientConfiguration(connectTimeout: .seconds(2)))
        let remote = RemoteBoard(configuration, transport: HTTPClientTransport(client: client))
        #expect(await remote.waitUntilSettled())
        #expect(remote.status == .live)

        await remote.stop()
        try await client.shutdown()                // the app's client: the app shuts it down, after its boards
        await server.stop()
    }

    @Test func localOverrides() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let server = FlagServer(board: try Board(directory: flags), configuration: ServerConfiguration(port: 0))
        let port = try await server.start()
        let remote = RemoteBoard(try RemoteConfiguration(
            baseURL: "http://127.0.0.1:\(port)", cacheDirectory: project.path + "/cache"))
        #expect(await remote.waitUntilSettled())

        try remote.setLocalOverride("checkout.new_flow", to: true, actor: "qa-panel")   // this device only
        let details = remote.details("checkout.new_flow", default: false)               // reason OVERRIDE, layer runtime
        print(remote.localOverrides)                                                    // ["checkout.new_flow": true]
        try remote.resetLocalOverride("checkout.new_flow")                              // the server's value again
        try remote.resetAllLocalOverrides()
        #expect(details.value && details.reason == .override)

        @Preference(Flags.Checkout.newFlow, on: remote) var newFlow   // a panel's toggle writes a local override
        newFlow = true
        #expect(remote.localOverrides["checkout.new_flow"] == .bool(true))

        await remote.stop()
        await server.stop()
    }
}

/// The keys `switchboard generate` writes for the example `flags/`, as far as the samples use them.
enum Flags {
    enum Checkout {
        static let newFlow = FlagKey("checkout.new_flow", default: false)
    }
}

/// What the app does when the new checkout is on.
func showNewCheckout() {
    print("new checkout")
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
