import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// Failed sign-ins are counted by reason and logged without the token; ten from one address within a minute shut
/// it out with 429 and `Retry-After`, and the log says so once.
@Suite struct FailedSignInTests {
    let project = TestProject(fixture: "flags")

    @Test func tenFailuresFromOneAddressGet429() async throws {
        let logs = InMemoryLogHandler()
        try await LiveServer.with(project, logger: recordingLogger(logs),
                                  configure: { $0.adminToken = AccessToken("admin-secret") }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                for attempt in 1...10 {
                    let response = try await client.get("/v1/flags", headers: [.authorization: "Bearer guess-\(attempt)"])
                    #expect(response.status == .unauthorized, "attempt \(attempt)")
                }
                let shut = try await client.get("/v1/flags", headers: [.authorization: "Bearer admin-secret"])
                #expect(shut.status == .tooManyRequests)
                let wait = try #require(shut.headers[.retryAfter].flatMap { Int($0) })
                #expect(wait > 0 && wait <= 60)
                let metrics = live.metrics
                #expect(metrics.contains(#"switchboard_auth_failures_total{reason="unknown_token"} 10"#), "\(metrics)")
                #expect(metrics.contains(#"switchboard_auth_failures_total{reason="rate_limited"} 1"#))
            }
        }
        let text = logs.entries.map { "\($0.message)" }.joined(separator: "\n")
        #expect(text.contains("refused a credential from 127.0.0.1"))
        #expect(!text.contains("guess-"))
        // The failure that shut the address out says so, once.
        let shutOut = logs.entries.filter { "\($0.message)".contains("127.0.0.1 is refused for up to 60 s after 10 failed") }
        #expect(shutOut.count == 1, "\(text)")
    }
}
