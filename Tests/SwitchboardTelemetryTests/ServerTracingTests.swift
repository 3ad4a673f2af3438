import AsyncHTTPClient
import InMemoryTracing
import NIOCore
import NIOHTTP1
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import SwitchboardTesting
import Testing
import Tracing

/// A span per HTTP request, and a `feature_flag.evaluation` event per OFREP evaluation on it, from a real
/// server on an ephemeral loopback port.
@Suite struct ServerTracingTests {
    /// Runs a server on a board inside `tracer`'s scope, and `body` with its port.
    func withServer(
        tracer: InMemoryTracer, traceValues: Bool = false, _ body: (Int) async throws -> Void
    ) async throws {
        let board = try Board.testing(yaml: shopDefinitions)
        try await withTracer(tracer) {
            let server = FlagServer(board: board, configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, traceValues: traceValues))
            let port = try await server.start()
            do {
                try await body(port)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }

    func post(_ path: String, port: Int) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: #"{"context": {"targetingKey": "u1"}}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test func eachRequestHasASpanWithAnEventPerEvaluation() async throws {
        let tracer = InMemoryTracer()
        try await withServer(tracer: tracer) { port in
            #expect(try await post("/ofrep/v1/evaluate/flags/shop.banner", port: port) == 200)
            #expect(try await post("/ofrep/v1/evaluate/flags/shop.nope", port: port) == 404)
            #expect(try await post("/ofrep/v1/evaluate/flags", port: port) == 200)
            try await waitUntil("three server spans") { tracer.finishedSpans.count { $0.kind == .server } >= 3 }
        }
        // The HTTP client traces its requests too, in the same tracer: keep the server's spans.
        let spans = tracer.finishedSpans.filter { $0.kind == .server }
        let single = try #require(spans.first { $0.attributes.flattened["url.path"] == "/ofrep/v1/evaluate/flags/shop.banner" })
        #expect(single.attributes.flattened["http.request.method"] == "POST")
        #expect(single.attributes.flattened["http.response.status_code"] == "200")
        #expect(single.events.map(\.name) == ["feature_flag.evaluation"])
        let event = try #require(single.events.first).flattened
        #expect(event["feature_flag.key"] == "shop.banner")
        #expect(event["feature_flag.provider.name"] == "switchboard")
        #expect(event["feature_flag.result.reason"] == "static")
        #expect(event["feature_flag.result.value"] == nil)

        let missing = try #require(spans.first { $0.attributes.flattened["url.path"] == "/ofrep/v1/evaluate/flags/shop.nope" })
        #expect(missing.events.first?.flattened["error.type"] == "flag_not_found")

        let bulk = try #require(spans.first { $0.attributes.flattened["url.path"] == "/ofrep/v1/evaluate/flags" })
        #expect(bulk.events.compactMap { $0.flattened["feature_flag.key"] }.sorted() == ["shop.banner", "shop.page_size"])
    }

    @Test func valuesGoInOnlyWhenTheServerIsToldTo() async throws {
        let tracer = InMemoryTracer()
        try await withServer(tracer: tracer, traceValues: true) { port in
            #expect(try await post("/ofrep/v1/evaluate/flags/shop.page_size", port: port) == 200)
            try await waitUntil("a server span") { tracer.finishedSpans.contains { $0.kind == .server } }
        }
        let span = try #require(tracer.finishedSpans.first { $0.kind == .server })
        let event = try #require(span.events.first).flattened
        #expect(event["feature_flag.result.value"] == "20")
    }
}
