import Switchboard
import SwitchboardRemote
import Testing

/// Configuration from code and from ADR 0007's variables.
@Suite struct ConfigurationTests {
    @Test func readsTheStandardVariablesWhenTheCodeGivesNone() throws {
        let configuration = try RemoteConfiguration(environment: [
            "OFREP_ENDPOINT": "http://flags.internal:8016/",
            "OFREP_HEADERS": "Authorization=Bearer%20abc, X-Team = payments,broken,=nothing",
            "OFREP_TIMEOUT_MS": "2500",
        ])
        #expect(configuration.baseURL == "http://flags.internal:8016")
        #expect(configuration.headers == ["Authorization": "Bearer abc", "X-Team": "payments"])
        #expect(configuration.timeout == .milliseconds(2500))
    }

    @Test func theCodeWinsOverTheVariables() throws {
        let configuration = try RemoteConfiguration(
            baseURL: "https://example.com", headers: [:], timeout: .seconds(1),
            environment: ["OFREP_ENDPOINT": "http://other", "OFREP_HEADERS": "A=b", "OFREP_TIMEOUT_MS": "9"])
        #expect(configuration.baseURL == "https://example.com")
        #expect(configuration.headers.isEmpty)
        #expect(configuration.timeout == .seconds(1))
    }

    @Test func reportsWhatCannotBeUsed() {
        #expect(throws: RemoteConfiguration.Problem.self) { try RemoteConfiguration(environment: [:]) }
        #expect(throws: RemoteConfiguration.Problem.self) {
            try RemoteConfiguration(baseURL: "ftp://x", environment: [:])
        }
        #expect(throws: RemoteConfiguration.Problem.self) {
            try RemoteConfiguration(environment: ["OFREP_ENDPOINT": "http://x", "OFREP_TIMEOUT_MS": "soon"])
        }
        let parsed = RemoteConfiguration.parseHeaders("a=1,nonsense")
        #expect(parsed.headers == ["a": "1"])
        #expect(parsed.warnings.count == 1)
    }

    @Test func backoffGrowsToItsMaximumWithJitter() {
        let backoff = RemoteConfiguration.Backoff(initial: .milliseconds(100), maximum: .seconds(1))
        for _ in 0..<50 {
            let first = backoff.delay(attempt: 1)
            #expect(first >= .milliseconds(50) && first <= .milliseconds(100))
            let late = backoff.delay(attempt: 20)
            #expect(late >= .milliseconds(500) && late <= .seconds(1))
        }
    }
}
