import HTTPTypes
import Hummingbird
import Locking
import NIOCore
import Switchboard

/// An OFREP server written from the specification alone, independent of `switchboard serve`: bulk evaluation
/// only (`POST /ofrep/v1/evaluate/flags`), no event stream, no `ETag`. Tests set its flags and how it answers.
final class MinimalOFREPServer: Sendable {
    /// How the next requests are answered.
    enum Mode: Sendable {
        /// `{"flags": […]}` from ``flags``.
        case normal
        /// A status with headers and an OFREP error body.
        case status(Int, headers: [String: String])
        /// A 200 whose body is not an OFREP bulk evaluation.
        case garbage(String)
    }

    private struct State {
        var flags: [(key: String, value: Value)] = []
        var failures: [(key: String, code: String)] = []
        var mode: Mode = .normal
        var arrivals: [Arrival] = []
    }

    /// A request's arrival, its headers and the status it was answered with.
    struct Arrival: Sendable {
        /// When it arrived.
        var time: ContinuousClock.Instant
        /// Its headers, names lower-cased.
        var headers: [String: String]
        /// The status it was answered with (0 while it is being answered).
        var status: Int
    }

    private let state = Locked(State())
    private let task: Locked<Task<Void, any Error>?> = Locked(nil)
    /// The port it listens on.
    let port: Int
    /// The API key it demands in `X-API-Key`, when set.
    let apiKey: String?

    init(apiKey: String? = nil) async throws {
        self.apiKey = apiKey
        let router = Router()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let box = Locked<MinimalOFREPServer?>(nil)
        router.post("ofrep/v1/evaluate/flags") { request, _ -> Response in
            guard let server = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            return server.answer(request)
        }
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            })
        let running = Task { try await app.runService() }
        var ports = stream.makeAsyncIterator()
        port = await ports.next() ?? 0
        task.withLock { $0 = running }
        box.withLock { $0 = self }
    }

    /// The base URL.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Stops the server.
    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = try? await running?.value
    }

    /// Sets the flags served, in order.
    func serve(_ flags: [(String, Value)], failures: [(String, String)] = []) {
        state.withLock { state in
            state.flags = flags.map { (key: $0.0, value: $0.1) }
            state.failures = failures.map { (key: $0.0, code: $0.1) }
        }
    }

    /// Sets how requests are answered.
    func answer(with mode: Mode) { state.withLock { $0.mode = mode } }

    /// The headers of every request so far, names lower-cased.
    var requests: [[String: String]] { arrivals.map(\.headers) }

    /// When each request arrived, and how it was answered, in order.
    var arrivals: [Arrival] { state.withLock { $0.arrivals } }

    private func answer(_ request: Request) -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let (flags, failures, mode, index) = state.withLock { state in
            state.arrivals.append(Arrival(time: .now, headers: headers, status: 0))
            return (state.flags, state.failures, state.mode, state.arrivals.count - 1)
        }
        let answered = response(to: headers, flags: flags, failures: failures, mode: mode)
        state.withLock { $0.arrivals[index].status = answered.status.code }
        return answered
    }

    private func response(
        to headers: [String: String], flags: [(key: String, value: Value)], failures: [(key: String, code: String)],
        mode: Mode
    ) -> Response {
        if let apiKey, headers["x-api-key"] != apiKey {
            return Self.json(#"{"errorDetails":"unauthorized"}"#, status: .unauthorized)
        }
        switch mode {
        case .normal:
            var body = "{\"flags\":["
            var entries: [String] = flags.map { flag in
                var text = "{\"key\":"
                Value.writeJSONString(flag.key, to: &text)
                text += ",\"value\":" + flag.value.json + ",\"reason\":\"STATIC\"}"
                return text
            }
            entries += failures.map { failure in
                "{\"key\":\"\(failure.key)\",\"errorCode\":\"\(failure.code)\",\"errorDetails\":\"no such flag\"}"
            }
            body += entries.joined(separator: ",") + "]}"
            return Self.json(body, status: .ok)
        case .status(let code, let extra):
            var response = Self.json(#"{"errorDetails":"scripted"}"#, status: HTTPResponse.Status(code: code))
            for (name, value) in extra { response.headers[HTTPField.Name(name)!] = value }
            return response
        case .garbage(let text):
            return Self.json(text, status: .ok)
        }
    }

    private static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
