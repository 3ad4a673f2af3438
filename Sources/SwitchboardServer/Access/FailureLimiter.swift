import Foundation
import Locking

/// Counts failed sign-ins by address and shuts out an address that failed too often: 10 failures within 60
/// seconds get 429 with `Retry-After: 60` until the oldest of them is a minute old.
///
/// Memory is bounded: an address is forgotten when its failures are older than the window, and at most
/// ``maxAddresses`` addresses are tracked (the oldest forgotten first), so a flood from many addresses cannot
/// grow the table without bound.
final class FailureLimiter: Sendable {
    /// Failures allowed in a window before requests are refused.
    let limit: Int
    /// The window, in seconds.
    let window: Double
    /// The most addresses tracked at once.
    let maxAddresses: Int
    private let failures = Locked<[String: [Double]]>([:])

    init(limit: Int = 10, window: Double = 60, maxAddresses: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maxAddresses = maxAddresses
    }

    /// Seconds until `address` may try again; `nil` when it may now.
    func retryAfter(for address: String, now: Double = Date().timeIntervalSince1970) -> Int? {
        failures.withLock { table in
            guard var times = table[address] else { return nil }
            times.removeAll { now - $0 >= window }
            table[address] = times.isEmpty ? nil : times
            guard times.count >= limit, let oldest = times.first else { return nil }
            return max(1, Int((oldest + window - now).rounded(.up)))
        }
    }

    /// Records a failure of `address`.
    ///
    /// - Returns: whether this failure shut the address out (the one that reached ``limit``), for the server's log.
    @discardableResult
    func recordFailure(of address: String, now: Double = Date().timeIntervalSince1970) -> Bool {
        failures.withLock { table in
            var times = table[address] ?? []
            times.removeAll { now - $0 >= window }
            let wasShut = times.count >= limit
            times.append(now)
            // Only the latest `limit` matter for the decision.
            if times.count > limit { times.removeFirst(times.count - limit) }
            table[address] = times
            if table.count > maxAddresses {
                table = table.filter { $0.value.last.map { now - $0 < window } ?? false }
                while table.count > maxAddresses, let oldest = table.min(by: { $0.value.last! < $1.value.last! }) {
                    table[oldest.key] = nil
                }
            }
            return !wasShut && times.count >= limit
        }
    }
}
