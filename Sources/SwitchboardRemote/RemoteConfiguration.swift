public import Foundation
public import Switchboard

/// How a ``RemoteBoard`` reaches its OFREP server and what it asks for.
///
/// Anything the code leaves out comes from OpenFeature's standard variables (OFREP ADR 0007): `OFREP_ENDPOINT`
/// (the base URL), `OFREP_HEADERS` (`Name=value,Name=value`, percent-decoded first) and `OFREP_TIMEOUT_MS`.
/// What the code sets wins.
public struct RemoteConfiguration: Sendable {
    /// How requests authenticate.
    public enum Credentials: Sendable, Hashable {
        /// No credentials.
        case none
        /// `Authorization: Bearer <token>`.
        case bearer(String)
        /// `X-API-Key: <key>`.
        case apiKey(String)
    }

    /// Reconnection and retry delays: exponential from `initial` up to `maximum`, each with random jitter
    /// (between half and all of the delay).
    public struct Backoff: Sendable, Hashable {
        /// The first delay.
        public var initial: Duration
        /// The longest delay.
        public var maximum: Duration

        /// Creates a backoff policy.
        public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The delay before retry number `attempt` (1 for the first), jittered.
        public func delay(attempt: Int) -> Duration {
            let exponent = min(max(attempt - 1, 0), 30)
            let full = min(initial * (1 << exponent), maximum)
            return full * Double.random(in: 0.5...1.0)
        }
    }

    /// Why a configuration cannot be built.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// The OFREP base URL, without `/ofrep/v1` (`http://127.0.0.1:8016`).
    public var baseURL: String
    /// Who values are evaluated for; ``RemoteBoard/setContext(_:)`` changes it later.
    public var context: EvaluationContext
    /// How requests authenticate.
    public var credentials: Credentials
    /// Extra header fields sent with every request (from `OFREP_HEADERS` when the code gives none).
    public var headers: [String: String]
    /// Where the last good answer is kept for offline starts; `nil` keeps nothing.
    public var cacheDirectory: String?
    /// How often to fetch when the server advertises no event stream; `nil` fetches only on demand.
    public var pollInterval: Duration?
    /// How long a request may wait for the response head.
    public var timeout: Duration
    /// After how long inactive (``RemoteBoard/setActive(_:)``) the event stream closes; `nil` takes the
    /// server's `inactivityDelaySec`, or 120 s.
    public var inactivityDelay: Duration?
    /// Delays between retries after failures and between reconnections.
    public var backoff: Backoff
    /// How long an open event stream may stay silent (no event, no heartbeat) before it is taken for dead: it is
    /// then closed and opened again, and the values refetched in full, as after a drop. A connection that a
    /// proxy or a sleeping network cut without a word otherwise looks open forever, and no change would arrive.
    /// The default, 45 s, is three of the heartbeats Switchboard's server sends every 15 s; `nil` waits forever.
    public var streamSilenceTimeout: Duration?
    /// The clock that applies the changes a server announced (a schedule step, an override's expiry) at their
    /// moment, online or not: the system clock by default; a test passes SwitchboardTesting's `ManualClock`.
    public var clock: any BoardClock = SystemClock()

    /// A configuration; `baseURL`, `headers` and `timeout` fall back to `OFREP_ENDPOINT`, `OFREP_HEADERS` and
    /// `OFREP_TIMEOUT_MS` in `environment` (default: the process's).
    ///
    /// - Throws: ``Problem`` when there is no base URL, or a variable has a value that cannot be used.
    public init(
        baseURL: String? = nil,
        context: EvaluationContext = .empty,
        credentials: Credentials = .none,
        headers: [String: String]? = nil,
        cacheDirectory: String? = nil,
        pollInterval: Duration? = .seconds(30),
        timeout: Duration? = nil,
        inactivityDelay: Duration? = nil,
        backoff: Backoff = Backoff(),
        streamSilenceTimeout: Duration? = .seconds(45),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Problem) {
        guard let url = baseURL ?? environment["OFREP_ENDPOINT"], !url.isEmpty else {
            throw Problem(description: "no OFREP base URL: pass one or set OFREP_ENDPOINT")
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw Problem(description: "the OFREP base URL '\(url)' is not an http:// or https:// URL")
        }
        self.baseURL = BulkEvaluation.trimmingSlash(url)
        self.context = context
        self.credentials = credentials
        self.headers = headers ?? Self.parseHeaders(environment["OFREP_HEADERS"] ?? "").headers
        self.cacheDirectory = cacheDirectory
        self.pollInterval = pollInterval
        if let timeout {
            self.timeout = timeout
        } else if let text = environment["OFREP_TIMEOUT_MS"] {
            guard let milliseconds = Int(text.trimmingCharacters(in: .whitespaces)), milliseconds > 0 else {
                throw Problem(description: "OFREP_TIMEOUT_MS is '\(text)', not a positive number of milliseconds")
            }
            self.timeout = .milliseconds(milliseconds)
        } else {
            self.timeout = .seconds(10)
        }
        self.inactivityDelay = inactivityDelay
        self.backoff = backoff
        self.streamSilenceTimeout = streamSilenceTimeout
    }

    /// Parses `OFREP_HEADERS` as ADR 0007 says: percent-decode the whole value, split at commas, split each pair
    /// at its first `=`, trim. Malformed entries are skipped and returned as warnings.
    public static func parseHeaders(_ text: String) -> (headers: [String: String], warnings: [String]) {
        let decoded = text.removingPercentEncoding ?? text
        var headers: [String: String] = [:]
        var warnings: [String] = []
        for pair in decoded.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                warnings.append("OFREP_HEADERS entry '\(pair)' has no '='")
                continue
            }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                warnings.append("OFREP_HEADERS entry '\(pair)' has no name")
                continue
            }
            headers[name] = value
        }
        return (headers, warnings)
    }

    /// The header fields every request carries: the extra headers, then the credentials.
    var requestHeaders: [String: String] {
        var fields = headers
        switch credentials {
        case .none: break
        case .bearer(let token): fields["Authorization"] = "Bearer \(token)"
        case .apiKey(let key): fields["X-API-Key"] = key
        }
        return fields
    }
}
