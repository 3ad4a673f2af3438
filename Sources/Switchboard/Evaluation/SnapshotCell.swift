import Synchronization

/// Holds the current ``Snapshot`` so readers get it with one atomic load and no reference counting.
///
/// A writer swaps in a new snapshot and retires the old one. Readers use a snapshot without retaining it, only for
/// the length of one lookup (nanoseconds to microseconds), so a retired snapshot is released only after a grace
/// period far longer than any lookup (60 s of the monotonic clock, so a wall-clock jump cannot shorten it). This is the read-copy-update pattern with a time-based grace period: reads
/// never take a lock and never touch a shared reference count, so two cores reading at once do not contend.
final class SnapshotCell: Sendable {
    // Pointers as bit patterns: raw pointers are not Sendable, addresses are.
    private let current: Atomic<UInt>
    private let retired = Mutex<[(address: UInt, time: Double)]>([])
    static let gracePeriod = 60.0

    init(_ snapshot: Snapshot) {
        current = Atomic(Self.address(of: snapshot))
    }

    deinit {
        Self.unmanaged(current.load(ordering: .acquiring)).release()
        for item in retired.withLock({ $0 }) { Self.unmanaged(item.address).release() }
    }

    /// Runs `body` with the current snapshot, without retaining it.
    @inline(__always)
    func read<R>(_ body: (Snapshot) -> R) -> R {
        Self.unmanaged(current.load(ordering: .acquiring))._withUnsafeGuaranteedRef(body)
    }

    /// The current snapshot, retained: for callers that keep it beyond one lookup.
    var snapshot: Snapshot {
        read { $0 }
    }

    /// Publishes a new snapshot and returns the one it replaced.
    @discardableResult
    func replace(with snapshot: Snapshot) -> Snapshot {
        let old = current.exchange(Self.address(of: snapshot), ordering: .acquiringAndReleasing)
        let previous = Self.unmanaged(old).takeUnretainedValue()
        let now = Clock.monotonicSeconds()
        let expired = retired.withLock { list -> [UInt] in
            list.append((old, now))
            let drop = list.filter { now - $0.time >= Self.gracePeriod }
            list.removeAll { now - $0.time >= Self.gracePeriod }
            return drop.map(\.address)
        }
        for address in expired { Self.unmanaged(address).release() }
        return previous
    }

    /// Retains a snapshot and returns its address.
    private static func address(of snapshot: Snapshot) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque())
    }

    @inline(__always)
    private static func unmanaged(_ address: UInt) -> Unmanaged<Snapshot> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
    }
}
