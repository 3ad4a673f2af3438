import Locking
import Switchboard

/// What a remote board answers from: the flags of one bulk answer, and where they came from. Immutable; a new
/// answer replaces it whole.
public final class RemoteSnapshot: Sendable {
    /// Where the values come from.
    enum Source: Sendable, Hashable {
        /// No values yet: no answer and no cache.
        case none
        /// The cache file, written after an earlier run's answer.
        case cache
        /// The server, in this run.
        case server
    }

    /// The flags served: the server's (or the cache's), with the device's local overrides over them.
    let flags: [String: RemoteFlag]
    /// The server's (or the cache's) flags alone.
    let served: [String: RemoteFlag]
    /// The lookup fast path, laid out as `Board`'s: each key's position, and the values by position. Copying a
    /// value out is cheaper than copying a whole flag with its strings and metadata.
    let positions: [String: Int]
    let values: ContiguousArray<Value?>
    let source: Source
    /// Grows with every snapshot the board publishes (``RemoteBoard/revision``).
    let revision: UInt64

    /// A snapshot of the served flags with local overrides over them: each override is served with the reason
    /// `OVERRIDE` and the layer `runtime`, marked `switchboard.local` in its metadata.
    convenience init(
        served: [String: RemoteFlag], local: [String: LocalOverride], source: Source, revision: UInt64
    ) {
        var flags = served
        for (key, entry) in local {
            var metadata = served[key]?.metadata ?? [:]
            metadata["switchboard.layer"] = .string(Layer.runtime.rawValue)
            metadata["switchboard.local"] = .bool(true)
            metadata["switchboard.actor"] = .string(entry.actor)
            flags[key] = RemoteFlag(value: entry.value, variant: nil, reason: Reason.override.rawValue, errorCode: nil,
                                    errorDetails: nil, metadata: metadata)
        }
        self.init(flags: flags, served: served, source: source, revision: revision)
    }

    init(flags: [String: RemoteFlag], served: [String: RemoteFlag]? = nil, source: Source, revision: UInt64 = 0) {
        self.flags = flags
        self.served = served ?? flags
        var positions: [String: Int] = [:]
        var values = ContiguousArray<Value?>()
        positions.reserveCapacity(flags.count)
        values.reserveCapacity(flags.count)
        for (key, flag) in flags {
            positions[key] = values.count
            values.append(flag.value)
        }
        self.positions = positions
        self.values = values
        self.source = source
        self.revision = revision
    }

    /// The value at a key, if it has one.
    @inline(__always)
    func value(_ key: String) -> Value? {
        guard let position = positions[key] else { return nil }
        return values[position]
    }

    /// How the answer resolves a key: the server's value, reason and variant (`CACHED` while serving the cache, and
    /// `OVERRIDE` from the `runtime` layer for a local override), or the server's per-flag error; `nil` when the
    /// answer has no such key.
    func resolution(of key: String) -> Resolution? {
        guard let flag = flags[key] else { return nil }
        if let code = flag.errorCode {
            return Resolution(value: nil, reason: .error, errorCode: ErrorCode(rawValue: code) ?? .general,
                              errorMessage: flag.errorDetails ?? "flag '\(key)' could not be evaluated (\(code))",
                              metadata: flag.metadata)
        }
        let layer = flag.metadata["switchboard.layer"]?.stringValue.flatMap(Layer.init(rawValue:))
        var reason = flag.reason.flatMap(Reason.init(rawValue:)) ?? .unknown
        if layer != nil, reason == .static { reason = .override }
        let isLocal = flag.metadata["switchboard.local"] == .bool(true)
        if source == .cache, !isLocal { reason = .cached }
        guard let value = flag.value else {
            return Resolution(value: nil, variant: flag.variant, reason: reason, metadata: flag.metadata)
        }
        return Resolution(value: value, variant: flag.variant, reason: reason, layer: layer ?? .default,
                          metadata: flag.metadata)
    }

    static let empty = RemoteSnapshot(flags: [:], source: .none)
}

/// A one-waiter wake-up signal that remembers a signal sent while nobody waits; many signals before a wait
/// count as one, which is what coalesces a burst of change events into one refetch.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Wakes the waiter, or the next one to wait.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Forgets a signal nobody has waited for yet.
    func clear() {
        state.withLock { $0.pending = false }
    }

    /// Returns when signalled, or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Returns when signalled (`true`) or when `duration` has passed (`false`).
    func wait(for duration: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: duration)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
