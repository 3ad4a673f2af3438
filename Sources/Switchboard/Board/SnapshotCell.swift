import CReaderCache
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds the current snapshot (a ``Board``'s ``Snapshot``, or a remote board's) and hands it to readers without a
/// lock, without an allocation and without touching a reference count that other threads touch.
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
package final class SnapshotCell<Current: AnyObject & Sendable>: Sendable {
    /// A unique number per cell: a thread's cache tells cells apart by it (addresses are reused, numbers are not).
    package let identity: UInt64
    /// The number of the current publication; a reader's cached snapshot is current when its number matches.
    private let publication = Atomic<UInt64>(1)
    /// The current snapshot and its publication number, changed and copied under the lock.
    private let current: Locked<(snapshot: Current, publication: UInt64)>

    /// Creates a cell serving `snapshot`.
    package init(_ snapshot: Current) {
        identity = cellIdentities.add(1, ordering: .relaxed).newValue
        current = Locked((snapshot, 1))
    }

    /// Runs `body` with the current snapshot. Lock-free and allocation-free once the calling thread has read this
    /// cell's current publication.
    @inline(__always)
    package func read<R>(_ body: (Current) -> R) -> R {
        let cache = ReaderCache.forCurrentThread()
        let number = publication.load(ordering: .acquiring)
        if let snapshot = cache.snapshot(for: identity, publication: number) {
            cache.enter()
            defer { cache.leave() }
            return snapshot._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: Current.self)) }
        }
        return readRefreshing(cache, body)
    }

    /// The slow path: the thread's cached snapshot is missing or stale.
    private func readRefreshing<R>(_ cache: ReaderCache, _ body: (Current) -> R) -> R {
        let (snapshot, number) = current.withLock { ($0.snapshot, $0.publication) }
        // A lookup nested in another lookup's body must not release the snapshot the outer body is using; it
        // reads with its own reference and leaves the cache as it is.
        guard !cache.isReading else { return body(snapshot) }
        let retained = cache.store(snapshot, for: identity, publication: number)
        cache.enter()
        defer { cache.leave() }
        return retained._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: Current.self)) }
    }

    /// The current snapshot, retained: for callers that keep it beyond one lookup.
    package var snapshot: Current {
        current.withLock { $0.snapshot }
    }

    /// Publishes a new snapshot and returns the one it replaced. Readers see it at their next lookup.
    @discardableResult
    package func replace(with snapshot: Current) -> Current {
        current.withLock { state in
            let old = state.snapshot
            state.snapshot = snapshot
            state.publication &+= 1
            publication.store(state.publication, ordering: .releasing)
            return old
        }
    }
}

/// Numbers the cells, for ``SnapshotCell/identity`` (a generic class has no stored static properties).
private let cellIdentities = Atomic<UInt64>(0)

/// One thread's strong references to the snapshots it last read, one per cell, in thread-local memory of its
/// own. Only its thread touches it, through plain pointers: no lock, no reference count, no exclusivity check.
struct ReaderCache {
    private struct Header {
        var depth: Int
        var count: Int
        var next: Int
    }

    private struct Slot {
        var cell: UInt64
        var publication: UInt64
        var snapshot: Unmanaged<AnyObject>
    }

    /// How many cells a thread remembers; reading more cells than this in turn only costs the slow path.
    private static let capacity = 4
    private let header: UnsafeMutablePointer<Header>
    private let slots: UnsafeMutablePointer<Slot>

    /// Only for its destructor, which frees a thread's cache when the thread exits; lookups find the cache
    /// through the C thread-local `switchboard_reader_cache`.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            // A lookup in a later thread-exit destructor makes a new cache rather than use this freed one.
            switchboard_reader_cache_set(nil)
            ReaderCache(pointer).free()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Whole cache lines of their own, two at a time (adjacent-line prefetch pairs them): every lookup writes
    /// its thread's cache (`depth`), and a neighbour in the same line, such as another thread's cache or a cell's
    /// publication number, would turn that write into a cache miss on every other core's lookup.
    private static let lineSize = 128
    private static let size = (MemoryLayout<Header>.stride + capacity * MemoryLayout<Slot>.stride + lineSize - 1)
        / lineSize * lineSize
    private static let alignment = lineSize

    private init(_ memory: UnsafeMutableRawPointer) {
        header = memory.assumingMemoryBound(to: Header.self)
        slots = (memory + MemoryLayout<Header>.stride).assumingMemoryBound(to: Slot.self)
    }

    /// This thread's cache, created on its first lookup.
    @inline(__always)
    static func forCurrentThread() -> ReaderCache {
        if let memory = switchboard_reader_cache_get() { return ReaderCache(memory) }
        return makeForCurrentThread()
    }

    /// The first lookup of a thread: its cache, registered for freeing at thread exit.
    @inline(never)
    private static func makeForCurrentThread() -> ReaderCache {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
        memory.initializeMemory(as: Header.self, to: Header(depth: 0, count: 0, next: 0))
        pthread_setspecific(key, memory)
        switchboard_reader_cache_set(memory)
        return ReaderCache(memory)
    }

    /// Releases the snapshots and the memory, when the thread exits.
    private func free() {
        for index in 0..<header.pointee.count { slots[index].snapshot.release() }
        (slots).deinitialize(count: header.pointee.count)
        UnsafeMutableRawPointer(header).deallocate()
    }

    /// The cell's snapshot, when the cache holds its current publication.
    @inline(__always)
    func snapshot(for cell: UInt64, publication: UInt64) -> Unmanaged<AnyObject>? {
        var index = 0
        let count = header.pointee.count
        while index < count {
            if slots[index].cell == cell {
                return slots[index].publication == publication ? slots[index].snapshot : nil
            }
            index += 1
        }
        return nil
    }

    /// Whether a lookup of this thread is running (a lookup nested in another's body).
    var isReading: Bool { header.pointee.depth > 0 }

    @inline(__always) func enter() { header.pointee.depth += 1 }
    @inline(__always) func leave() { header.pointee.depth -= 1 }

    /// Keeps a strong reference to a cell's snapshot, releasing the one it replaces.
    func store(_ snapshot: AnyObject, for cell: UInt64, publication: UInt64) -> Unmanaged<AnyObject> {
        let retained = Unmanaged.passRetained(snapshot)
        let slot = Slot(cell: cell, publication: publication, snapshot: retained)
        let count = header.pointee.count
        if let index = (0..<count).first(where: { slots[$0].cell == cell }) {
            let old = slots[index].snapshot
            slots[index] = slot
            old.release()
        } else if count < Self.capacity {
            (slots + count).initialize(to: slot)
            header.pointee.count = count + 1
        } else {
            // Full: replace the slot filled longest ago.
            let index = header.pointee.next
            header.pointee.next = (index + 1) % Self.capacity
            let old = slots[index].snapshot
            slots[index] = slot
            old.release()
        }
        return retained
    }
}
