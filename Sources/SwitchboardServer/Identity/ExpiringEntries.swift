import Foundation

/// A map whose entries end at a time of their own, holding at most `capacity` of them: when full, ended entries go
/// first, then the ones that would end soonest. Not thread-safe; its owner keeps it under a lock.
///
/// Verified JWTs, console sessions and sign-ins in progress live in one each, so that no amount of traffic grows
/// the server's memory without bound.
struct ExpiringEntries<Value> {
    private var entries: [String: (value: Value, end: Date)] = [:]
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value under `key`, while it has not ended.
    mutating func value(for key: String, now: Date = Date()) -> Value? {
        guard let entry = entries[key] else { return nil }
        guard entry.end > now else {
            entries[key] = nil
            return nil
        }
        return entry.value
    }

    /// The value under `key`, removed: a one-time entry such as a sign-in's `state`.
    mutating func take(_ key: String, now: Date = Date()) -> Value? {
        guard let entry = entries.removeValue(forKey: key), entry.end > now else { return nil }
        return entry.value
    }

    /// Keeps `value` under `key` until `end`.
    mutating func set(_ key: String, to value: Value, until end: Date, now: Date = Date()) {
        if entries[key] == nil, entries.count >= capacity {
            entries = entries.filter { $0.value.end > now }
            if entries.count >= capacity, let soonest = entries.min(by: { $0.value.end < $1.value.end }) {
                entries[soonest.key] = nil
            }
        }
        entries[key] = (value, end)
    }

    /// How many entries are kept, ended ones not yet dropped included.
    var count: Int { entries.count }
}
