import Locking
import Switchboard

/// One watcher's stream, fed with board snapshots: each snapshot offered is read, and what was read is passed on
/// when it differs from what was last passed on. The first offer always passes.
final class SnapshotFeed<Reading: Equatable & Sendable, Element: Sendable>: Sendable {
    /// What the watcher receives; a slow watcher gets the newest element, not every one in between.
    let updates: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation
    private let read: @Sendable (any ValueSnapshot) -> (Reading, Element)
    private let last = Locked<Reading?>(nil)

    /// Creates a feed that turns a snapshot into what it compares (`Reading`) and what it passes on (`Element`).
    init(read: @escaping @Sendable (any ValueSnapshot) -> (Reading, Element)) {
        (updates, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.read = read
    }

    /// Reads the snapshot `current` returns and passes it on when the reading changed.
    func offer(_ current: () -> any ValueSnapshot) {
        last.withLock { last in
            // Taken and yielded under the lock: two offers racing (the first one and a publication's) then
            // reach the watcher in the order of the snapshots they read, so the last element is the newest state.
            // Yielding to an AsyncStream never blocks.
            let (reading, element) = read(current())
            guard reading != last else { return }
            last = reading
            continuation.yield(element)
        }
    }

    /// Ends the stream.
    func finish() {
        continuation.finish()
    }
}

/// A snapshot compared by identity: one board snapshot is one state, however many keys it has.
struct SameSnapshot: Equatable, Sendable {
    let snapshot: any ValueSnapshot

    init(_ snapshot: any ValueSnapshot) {
        self.snapshot = snapshot
    }

    static func == (lhs: SameSnapshot, rhs: SameSnapshot) -> Bool {
        lhs.snapshot === rhs.snapshot
    }
}
