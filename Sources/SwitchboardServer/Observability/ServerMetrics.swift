import Switchboard
import Synchronization

/// The server's counters, rendered as Prometheus text at `GET /metrics`.
///
/// Counting happens on every request, so it takes no lock: each counter is one atomic, and the label sets are
/// fixed (every reason, the usual statuses) with a locked table only for statuses outside them.
final class ServerMetrics: Sendable {
    /// One monotonically increasing count.
    final class Counter: Sendable {
        private let count = Atomic<Int>(0)

        /// Adds `amount`.
        func increment(by amount: Int = 1) {
            count.add(amount, ordering: .relaxed)
        }

        /// The count.
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Reasons in the order they are rendered; `OVERRIDE` is counted as itself, not as the `STATIC` OFREP sends.
    static let reasons: [Reason] = [.static, .default, .targetingMatch, .split, .disabled, .override, .error]
    /// Statuses counted without a lock.
    static let commonStatuses = [200, 304, 400, 401, 403, 404, 405, 413, 500]

    private let evaluations = ServerMetrics.reasons.map { _ in Counter() }
    private let commonRequests = ServerMetrics.commonStatuses.map { _ in Counter() }
    private let otherRequests = Mutex<[Int: Int]>([:])
    /// New revisions served: reloads of definitions or override files, and runtime store changes.
    let reloads = Counter()
    /// Reloads refused because the definitions did not validate.
    let reloadErrors = Counter()

    /// Evaluations counted locally by reason, to add to the totals at once: a bulk evaluation of a thousand flags
    /// then touches each shared counter once.
    struct Tally {
        fileprivate var counts = [Int](repeating: 0, count: ServerMetrics.reasons.count)

        /// Counts one evaluation.
        mutating func add(_ reason: Reason) {
            counts[ServerMetrics.index(of: reason)] += 1
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

    /// Counts one evaluation.
    func recordEvaluation(_ reason: Reason) {
        evaluations[Self.index(of: reason)].increment()
    }

    /// Adds a tally of evaluations.
    func record(_ tally: Tally) {
        for (index, count) in tally.counts.enumerated() where count > 0 {
            evaluations[index].increment(by: count)
        }
    }

    /// Counts one response.
    func recordRequest(status: Int) {
        if let index = Self.commonStatuses.firstIndex(of: status) {
            commonRequests[index].increment()
        } else {
            otherRequests.withLock { $0[status, default: 0] += 1 }
        }
    }

    /// The evaluations counted with a reason.
    func evaluations(_ reason: Reason) -> Int {
        evaluations[Self.index(of: reason)].value
    }

    /// The responses counted with a status.
    func requests(status: Int) -> Int {
        if let index = Self.commonStatuses.firstIndex(of: status) { return commonRequests[index].value }
        return otherRequests.withLock { $0[status] ?? 0 }
    }

    /// The Prometheus text exposition (format 0.0.4), with gauges read from the board and the feed.
    func render(board: Board, degraded: Bool, eventStreams: Int) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("switchboard_evaluations_total", "counter", "Flag evaluations served over OFREP, by reason.")
        for (index, reason) in Self.reasons.enumerated() {
            out += "switchboard_evaluations_total{reason=\"\(reason.rawValue)\"} \(evaluations[index].value)\n"
        }
        family("switchboard_reloads_total", "counter",
               "New revisions served: definition or override file reloads and runtime override changes.")
        out += "switchboard_reloads_total \(reloads.value)\n"
        family("switchboard_reload_errors_total", "counter",
               "Reloads refused because the definitions did not validate; the last good ones stayed in service.")
        out += "switchboard_reload_errors_total \(reloadErrors.value)\n"
        family("switchboard_http_requests_total", "counter", "HTTP responses, by status code.")
        var statuses = otherRequests.withLock { $0 }
        for (index, status) in Self.commonStatuses.enumerated() {
            statuses[status] = commonRequests[index].value
        }
        for status in statuses.keys.sorted() where statuses[status]! > 0 {
            out += "switchboard_http_requests_total{status=\"\(status)\"} \(statuses[status]!)\n"
        }
        family("switchboard_revision", "gauge", "The revision of the definitions and overrides in service.")
        out += "switchboard_revision \(board.revision)\n"
        family("switchboard_definitions", "gauge", "Definitions in service.")
        out += "switchboard_definitions \(board.registry.count)\n"
        family("switchboard_degraded", "gauge", "1 while the last reload failed or the override store is unreadable.")
        out += "switchboard_degraded \(degraded ? 1 : 0)\n"
        family("switchboard_event_streams", "gauge", "Open OFREP event streams.")
        out += "switchboard_event_streams \(eventStreams)\n"
        return out
    }
}
