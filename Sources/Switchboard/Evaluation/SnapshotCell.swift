import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds the current ``Snapshot`` and hands it to readers without a lock, without an allocation and without
/// touching a reference count that other threads touch.
///
/// Every reading thread keeps its own strong reference to the snapshot it last read, in a thread-local
/// ``ReaderCache``, tagged with the cell's publication number. A lookup loads the publication number (one atomic
/// load of a word only writers write) and, when it matches, uses the thread's own reference. When it does not, the
/// thread takes the current snapshot under the cell's lock, retains it and drops the one it had: that happens once
/// per thread per publication, off the hot path.
///
/// Memory is reclaimed by construction: a snapshot lives exactly as long as a strong reference to it exists (the
/// cell's, or a reader thread's), so a reader paused for any length of time keeps the snapshot it is reading
/// alive, and nothing is freed by a timer. A retired snapshot stays alive until each thread that read it reads
/// again or exits (its cache is released by the thread-local destructor), so memory is bounded by the number of
/// reading threads, not by the write rate.
final class SnapshotCell: Sendable {
    /// A unique number per cell: a thread's cache tells cells apart by it (addresses are reused, numbers are not).
    let identity: UInt64
    /// The number of the current publication; a reader's cached snapshot is current when its number matches.
    private let publication = Atomic<UInt64>(1)
    /// The current snapshot and its publication number, changed and copied under the lock.
    private let current: Mutex<(snapshot: Snapshot, publication: UInt64)>

    private static let identities = Atomic<UInt64>(0)

    init(_ snapshot: Snapshot) {
        identity = Self.identities.add(1, ordering: .relaxed).newValue
        current = Mutex((snapshot, 1))
    }

    /// Runs `body` with the current snapshot. Lock-free and allocation-free once the calling thread has read this
    /// cell's current publication.
    @inline(__always)
    func read<R>(_ body: (Snapshot) -> R) -> R {
        let cache = ReaderCache.forCurrentThread()
        let number = publication.load(ordering: .acquiring)
        if let slot = cache.slot(for: identity, publication: number) {
            cache.depth += 1
            defer { cache.depth -= 1 }
            return cache.snapshot(at: slot)._withUnsafeGuaranteedRef(body)
        }
        return readRefreshing(cache, body)
    }

    /// The slow path: the thread's cached snapshot is missing or stale.
    private func readRefreshing<R>(_ cache: ReaderCache, _ body: (Snapshot) -> R) -> R {
        let (snapshot, number) = current.withLock { ($0.snapshot, $0.publication) }
        // A lookup nested in another lookup's body must not release the snapshot the outer body is using; it
        // reads with its own reference and leaves the cache as it is.
        guard cache.depth == 0 else { return body(snapshot) }
        let slot = cache.store(snapshot, for: identity, publication: number)
        cache.depth += 1
        defer { cache.depth -= 1 }
        return cache.snapshot(at: slot)._withUnsafeGuaranteedRef(body)
    }

    /// The current snapshot, retained: for callers that keep it beyond one lookup.
    var snapshot: Snapshot {
        current.withLock { $0.snapshot }
    }

    /// Publishes a new snapshot and returns the one it replaced. Readers see it at their next lookup.
    @discardableResult
    func replace(with snapshot: Snapshot) -> Snapshot {
        current.withLock { state in
            let old = state.snapshot
            state.snapshot = snapshot
            state.publication &+= 1
            publication.store(state.publication, ordering: .releasing)
            return old
        }
    }
}

/// One thread's strong references to the snapshots it last read, one per cell, kept in thread-local storage.
/// Only its own thread touches it, so it needs no synchronization.
final class ReaderCache {
    private struct Entry {
        var cell: UInt64
        var publication: UInt64
        var snapshot: Unmanaged<Snapshot>
    }

    /// How many cells a thread remembers; reading more cells than this in turn only costs the slow path.
    private static let capacity = 4
    private var entries: [Entry] = []
    private var next = 0
    /// How many `read` bodies of this thread are running (nested lookups).
    var depth = 0

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ReaderCache>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    deinit {
        for entry in entries { entry.snapshot.release() }
    }

    /// This thread's cache, created on its first lookup.
    @inline(__always)
    static func forCurrentThread() -> ReaderCache {
        let key = Self.key
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ReaderCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let cache = ReaderCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// The slot holding a cell's snapshot, when it is the current publication.
    @inline(__always)
    func slot(for cell: UInt64, publication: UInt64) -> Int? {
        for index in entries.indices where entries[index].cell == cell {
            return entries[index].publication == publication ? index : nil
        }
        return nil
    }

    @inline(__always)
    func snapshot(at slot: Int) -> Unmanaged<Snapshot> {
        entries[slot].snapshot
    }

    /// Keeps a strong reference to a cell's snapshot, releasing the one it replaces.
    func store(_ snapshot: Snapshot, for cell: UInt64, publication: UInt64) -> Int {
        let retained = Unmanaged.passRetained(snapshot)
        if let index = entries.firstIndex(where: { $0.cell == cell }) {
            let old = entries[index].snapshot
            entries[index] = Entry(cell: cell, publication: publication, snapshot: retained)
            old.release()
            return index
        }
        if entries.count < Self.capacity {
            entries.append(Entry(cell: cell, publication: publication, snapshot: retained))
            return entries.count - 1
        }
        // Full: replace the slot filled longest ago.
        let index = next
        next = (next + 1) % Self.capacity
        let old = entries[index].snapshot
        entries[index] = Entry(cell: cell, publication: publication, snapshot: retained)
        old.release()
        return index
    }
}
