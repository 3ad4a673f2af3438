/// Every key's resolution state, by registry position, in chunks of 64: a write that changes a few keys copies
/// their chunks and the small array of chunk references, and shares every other chunk with the table before it.
/// Publishing an override costs what it changes (and a few hundred bytes per ten thousand definitions), not a
/// copy of the whole table.
struct OverrideTable: Sendable {
    static let shift = 6
    static let mask = (1 << shift) - 1

    /// 64 consecutive positions: their entries, and the part of each that the hot path reads.
    final class Chunk: Sendable {
        let entries: [Snapshot.KeyState]
        /// The hot-path entries, in memory of their own so a lookup reads them through a plain pointer.
        nonisolated(unsafe) let fast: UnsafeMutablePointer<Snapshot.HotState>

        init(_ entries: [Snapshot.KeyState]) {
            self.entries = entries
            fast = .allocate(capacity: entries.count)
            for (index, entry) in entries.enumerated() {
                (fast + index).initialize(to: Snapshot.HotState(value: entry.contextFree.value, isDynamic: entry.isDynamic))
            }
        }

        deinit {
            fast.deinitialize(count: entries.count)
            fast.deallocate()
        }
    }

    private let chunks: [Chunk]
    /// The number of positions.
    let count: Int

    /// A table of entries in registry order.
    init(entries: [Snapshot.KeyState]) {
        count = entries.count
        var chunks: [Chunk] = []
        chunks.reserveCapacity((entries.count + Self.mask) >> Self.shift)
        var start = 0
        while start < entries.count {
            let end = min(start + Self.mask + 1, entries.count)
            chunks.append(Chunk(Array(entries[start..<end])))
            start = end
        }
        self.chunks = chunks
    }

    private init(chunks: [Chunk], count: Int) {
        self.chunks = chunks
        self.count = count
    }

    /// The entry at a position.
    subscript(position: Int) -> Snapshot.KeyState {
        chunks[position >> Self.shift].entries[position & Self.mask]
    }

    /// A new array of each chunk's hot-path entries, for a snapshot to read (and free) while it holds this table.
    func fastPointers() -> UnsafeMutablePointer<UnsafeMutablePointer<Snapshot.HotState>> {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Snapshot.HotState>>
            .allocate(capacity: max(1, chunks.count))
        for (index, chunk) in chunks.enumerated() { (pointers + index).initialize(to: chunk.fast) }
        return pointers
    }

    /// A table with some entries replaced, sharing every untouched chunk with this one.
    func replacing(_ replacements: [Int: Snapshot.KeyState]) -> OverrideTable {
        guard !replacements.isEmpty else { return self }
        var chunks = self.chunks
        var byChunk: [Int: [(Int, Snapshot.KeyState)]] = [:]
        for (position, entry) in replacements { byChunk[position >> Self.shift, default: []].append((position, entry)) }
        for (chunk, items) in byChunk {
            var entries = chunks[chunk].entries
            for (position, entry) in items { entries[position & Self.mask] = entry }
            chunks[chunk] = Chunk(entries)
        }
        return OverrideTable(chunks: chunks, count: count)
    }
}
