import Locking
import Metrics
import Switchboard

/// The server's counters, through swift-metrics: into the board's `Board/metricsFactory` — the process's
/// `MetricsSystem` unless the board was given another — next to the board's own (reloads, writes, outages).
///
/// | metric | type | labels |
/// |---|---|---|
/// | `switchboard_evaluations_total` | counter | `reason` (OpenFeature's, `OVERRIDE` counted as itself) |
/// | `switchboard_flag_evaluations_total` | counter | `key` (defined keys only), `reason` |
/// | `switchboard_evaluation_errors_total` | counter | `error_type` (`FLAG_NOT_FOUND`, `TYPE_MISMATCH`, …) |
/// | `switchboard_http_requests_total` | counter | `status` |
/// | `switchboard_ofrep_request_duration_seconds` | histogram | `route` (`flag`, `flags`) |
/// | `switchboard_event_streams` | gauge | |
/// | `switchboard_http_connections` | gauge | |
/// | `switchboard_http_connections_closed_total` | counter | `reason` (`header_timeout`, `idle_timeout`) |
/// | `switchboard_http_connections_refused_total` | counter | |
/// | `switchboard_build_info` | gauge, always 1 | `version` (`SwitchboardVersion/current`) |
/// | `switchboard_unknown_key_lookups_total` | counter | `key` (keys no file defines, at most 100; ``UsageTracker``) |
///
/// Counting happens on every request, so handles are made once and kept: the reason and error counters up
/// front, a status's on its first response, and a key's per position in the definitions in service, so a bulk
/// evaluation of a thousand flags takes one lock, not a thousand.
final class ServerMetrics: Sendable {
    /// The label of the OFREP latency histogram; `FlagServer.prometheusFactory(registry:)` gives it buckets
    /// that resolve microseconds.
    static let latencyLabel = "switchboard_ofrep_request_duration_seconds"

    /// Reasons in the order of ``index(of:)``.
    static let reasons: [Reason] = [.static, .default, .targetingMatch, .split, .disabled, .override, .error]
    static let errorCodes: [ErrorCode] = [
        .flagNotFound, .typeMismatch, .parseError, .targetingKeyMissing, .invalidContext, .providerNotReady, .general,
    ]

    private let factory: any MetricsFactory
    private let evaluations: [Counter]
    private let errors: [Counter]
    private let requests = Locked<[Int: Counter]>([:])
    private let authFailures = Locked<[String: Counter]>([:])
    private let keyed = Locked(KeyedCounters())
    /// The OFREP latency of a single evaluation, and of a bulk one.
    let singleLatency: CoreMetrics.Timer
    let bulkLatency: CoreMetrics.Timer
    private let eventStreams: Gauge
    private let openConnections: Gauge
    private let closedConnections: [ConnectionDeadlines.Reason: Counter]
    private let refusedConnections: Counter
    /// Per key, the last evaluation and the count (`GET /v1/usage`), fed from the same tallies.
    let usage: UsageTracker

    /// The per-key counters for the definitions in service, by registry position and reason.
    private struct KeyedCounters {
        var definitions: CompiledDefinitions?
        var counters: [[Counter?]] = []
    }

    init(factory: any MetricsFactory) {
        self.factory = factory
        evaluations = Self.reasons.map { reason in
            Counter(label: "switchboard_evaluations_total", dimensions: [("reason", reason.rawValue)],
                    factory: factory)
        }
        errors = Self.errorCodes.map { code in
            Counter(label: "switchboard_evaluation_errors_total", dimensions: [("error_type", code.rawValue)],
                    factory: factory)
        }
        singleLatency = CoreMetrics.Timer(label: Self.latencyLabel, dimensions: [("route", "flag")], factory: factory)
        bulkLatency = CoreMetrics.Timer(label: Self.latencyLabel, dimensions: [("route", "flags")], factory: factory)
        eventStreams = Gauge(label: "switchboard_event_streams", factory: factory)
        eventStreams.record(0)
        openConnections = Gauge(label: "switchboard_http_connections", factory: factory)
        openConnections.record(0)
        closedConnections = Dictionary(uniqueKeysWithValues: ConnectionDeadlines.Reason.allCases.map { reason in
            (reason, Counter(label: "switchboard_http_connections_closed_total",
                             dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        refusedConnections = Counter(label: "switchboard_http_connections_refused_total", factory: factory)
        usage = UsageTracker(factory: factory)
        // The usual Prometheus idiom for what a scrape cannot otherwise see: a constant 1 labelled with the version.
        Gauge(label: "switchboard_build_info", dimensions: [("version", SwitchboardVersion.current)], factory: factory)
            .record(1)
    }

    /// Evaluations counted locally, to add to the shared counters at once: a bulk evaluation of a thousand flags
    /// then takes one lock.
    struct Tally {
        fileprivate var byReason = [Int](repeating: 0, count: ServerMetrics.reasons.count)
        fileprivate var byError = [Int](repeating: 0, count: ServerMetrics.errorCodes.count)
        fileprivate var byPosition: [(position: Int, reason: Int)] = []

        /// Counts one evaluation; `position` is the key's in `snapshot`'s registry, `nil` for an unknown key.
        mutating func add(_ resolution: Resolution, position: Int?) {
            let reason = ServerMetrics.index(of: resolution.reason)
            byReason[reason] += 1
            if let code = resolution.errorCode, let error = ServerMetrics.errorCodes.firstIndex(of: code) {
                byError[error] += 1
            }
            if let position { byPosition.append((position, reason)) }
        }
    }

    private static func index(of reason: Reason) -> Int {
        switch reason {
        case .static: 0
        case .default: 1
        case .targetingMatch: 2
        case .split: 3
        case .disabled: 4
        case .override: 5
        case .error, .cached, .unknown: 6
        }
    }

    /// Adds a tally of evaluations made on `snapshot`.
    func record(_ tally: Tally, on snapshot: Snapshot) {
        for (index, count) in tally.byReason.enumerated() where count > 0 { evaluations[index].increment(by: count) }
        for (index, count) in tally.byError.enumerated() where count > 0 { errors[index].increment(by: count) }
        guard !tally.byPosition.isEmpty else { return }
        usage.evaluated(tally.byPosition.lazy.map(\.position), on: snapshot)
        let registry = snapshot.registry
        keyed.withLock { keyed in
            if keyed.definitions !== snapshot.definitions {
                keyed.definitions = snapshot.definitions
                keyed.counters = Array(repeating: [], count: registry.count)
            }
            for (position, reason) in tally.byPosition {
                if keyed.counters[position].isEmpty {
                    keyed.counters[position] = Array(repeating: nil, count: Self.reasons.count)
                }
                if let counter = keyed.counters[position][reason] {
                    counter.increment()
                } else {
                    let counter = Counter(
                        label: "switchboard_flag_evaluations_total",
                        dimensions: [("key", registry.definitions[position].key),
                                     ("reason", Self.reasons[reason].rawValue)],
                        factory: factory)
                    keyed.counters[position][reason] = counter
                    counter.increment()
                }
            }
        }
    }

    /// Records how many OFREP event streams are open.
    func recordEventStreams(_ count: Int) {
        eventStreams.record(count)
    }

    /// Records how many connections are open.
    func recordOpenConnections(_ count: Int) {
        openConnections.record(count)
    }

    /// Counts a connection closed because it waited too long.
    func recordConnectionClosed(by reason: ConnectionDeadlines.Reason) {
        closedConnections[reason]?.increment()
    }

    /// Counts a connection refused at the cap.
    func recordConnectionRefused() {
        refusedConnections.increment()
    }

    /// Counts one response.
    func recordRequest(status: Int) {
        let counter = requests.withLock { requests in
            if let counter = requests[status] { return counter }
            let counter = Counter(label: "switchboard_http_requests_total", dimensions: [("status", "\(status)")],
                                  factory: factory)
            requests[status] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts a refused credential (`switchboard_auth_failures_total{reason}`): `unknown_token`, `rate_limited`, or
    /// what the identity provider's verification found (`expired`, `bad_signature`, …).
    func recordAuthFailure(reason: String) {
        let counter = authFailures.withLock { counters in
            if let counter = counters[reason] { return counter }
            let counter = Counter(label: "switchboard_auth_failures_total", dimensions: [("reason", reason)],
                                  factory: factory)
            counters[reason] = counter
            return counter
        }
        counter.increment()
    }
}
