#if OTLP
import AsyncHTTPClient
import Foundation
import Hummingbird
import Locking
import Logging
import NIOCore
import NIOHTTP1
import SwitchboardTestSupport
import Testing

/// `switchboard serve` with `OTEL_EXPORTER_OTLP_ENDPOINT` exports its spans, with their
/// `feature_flag.evaluation` events, and its metrics over OTLP/HTTP: a receiver here records what arrives.
@Suite struct OTLPExportTests {
    /// An OTLP/HTTP collector on a free loopback port that keeps every request body by path.
    final class Receiver: Sendable {
        private let received = Locked<[(path: String, body: [UInt8])]>([])
        private let task = Locked<Task<Void, any Error>?>(nil)

        /// Starts it and returns its port.
        func start() async throws -> Int {
            let router = Router()
            for path in ["v1/traces", "v1/metrics", "v1/logs"] {
                router.post(RouterPath(path)) { [self] request, _ -> Response in
                    let body = try await request.body.collect(upTo: 16 << 20)
                    received.withLock { $0.append(("/" + path, Array(body.readableBytesView))) }
                    // An empty protobuf message: the export succeeded, nothing was rejected.
                    return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
                }
            }
            let port = Locked<Int?>(nil)
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } },
                                  logger: Logger(label: "otlp-receiver") { _ in SwiftLogNoOpLogHandler() })
            task.withLock { $0 = Task { try await app.run() } }
            var found: Int?
            try await waitUntil("the receiver listens") {
                found = port.withLock { $0 }
                return found != nil
            }
            return found!
        }

        func stop() {
            task.withLock { $0?.cancel() }
        }

        /// Whether a body received at `path` contains every one of `strings` (OTLP/protobuf keeps strings as
        /// they are).
        func received(at path: String, containing strings: [String]) -> Bool {
            received.withLock { received in
                received.contains { item in
                    item.path == path && strings.allSatisfy { item.body.contains(subsequence: Array($0.utf8)) }
                }
            }
        }
    }

    @Test func serveExportsSpansWithEvaluationEventsAndMetrics() async throws {
        let receiver = Receiver()
        let receiverPort = try await receiver.start()
        defer { receiver.stop() }
        let directory = TemporaryDirectory()
        directory.write("flags/shop.yaml", "namespace: shop\nflags:\n  banner:\n    type: bool\n    default: true\n")
        let server = try await ServeProcess(
            ["--flags", directory.file("flags"), "--state", directory.file("state.json")],
            environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiverPort)",
                "OTEL_METRIC_EXPORT_INTERVAL": "500", "OTEL_BSP_SCHEDULE_DELAY": "200",
            ],
            log: directory.file("serve.log"))
        defer { server.stop() }
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/ofrep/v1/evaluate/flags/shop.banner")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: #"{"context": {}}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(response.status.code == 200)
        try await waitUntil("the evaluation's span reaches the collector (log: \(server.log))") {
            receiver.received(at: "/v1/traces", containing: [
                "feature_flag.evaluation", "feature_flag.key", "shop.banner", "feature_flag.provider.name",
                "switchboard", "feature_flag.result.reason", "static",
            ])
        }
        try await waitUntil("the metrics reach the collector (log: \(server.log))") {
            receiver.received(at: "/v1/metrics", containing: [
                "switchboard_evaluations_total", "switchboard_flag_evaluations_total",
                "switchboard_ofrep_request_duration_seconds",
            ])
        }
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in it.
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
#else
import Testing

/// Built without the `OTLP` trait: there is no exporter to test. `swift test --traits OTLP --filter
/// OTLPExportTests` runs it; CI does.
@Suite(.disabled("built without the OTLP trait; `swift test --traits OTLP --filter OTLPExportTests` runs it"))
struct OTLPExportTests {
    @Test func serveExportsSpansWithEvaluationEventsAndMetrics() {}
}
#endif
