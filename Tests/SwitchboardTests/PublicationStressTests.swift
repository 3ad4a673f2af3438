import Foundation
@testable import Switchboard
import Locking
import Synchronization
import SwitchboardTestSupport
import Testing

/// Readers on every core while a writer publishes without pause: every read sees one whole snapshot, and a reader
/// paused inside a lookup keeps reading valid memory however many snapshots are published meanwhile. Run it under
/// Thread Sanitizer and Address Sanitizer with `scripts/sanitizers.sh`; a snapshot freed too early is a
/// use-after-free there, and a data race a report.
@Suite struct PublicationStressTests {
    static let definitions = """
        flags:
          pair.a:
            type: int
            default: 0
          pair.b:
            type: int
            default: 0
          text:
            type: string
            default: start
        """

    /// A cell and a way to publish a snapshot in which both keys of the pair hold `n`.
    private static func makeCell() throws -> (SnapshotCell<Snapshot>, @Sendable (Int) -> Void, Int, Int) {
        let registry = DefinitionLoader.load(sources: [("flags/a.yaml", Array(definitions.utf8))]).registry
        let first = Snapshot(registry: registry)
        let cell = SnapshotCell(first)
        let a = try #require(registry.position(of: "pair.a"))
        let b = try #require(registry.position(of: "pair.b"))
        let publish: @Sendable (Int) -> Void = { n in
            let entries: [String: StoredOverride] = [
                "pair.a": StoredOverride(value: .int(n), actor: "w", time: ""),
                "pair.b": StoredOverride(value: .int(n), actor: "w", time: ""),
                "text": StoredOverride(value: .string(String(repeating: "x", count: n % 64)), actor: "w", time: ""),
            ]
            let (next, _) = cell.snapshot.updatingRuntime(entries: entries, changedStoreKeys: entries.keys,
                                                          storeVersion: UInt64(n), revision: UInt64(n))
            cell.replace(with: next)
        }
        return (cell, publish, a, b)
    }

    @Test func readersAlwaysSeeAWholeSnapshot() async throws {
        let (cell, publish, a, b) = try Self.makeCell()
        let publications = 20_000
        let counters = StressCounters()
        let readers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    try? await onOwnThread {
                        while !counters.done.load(ordering: .acquiring) {
                            let (x, y, text) = cell.read { snapshot in
                                (snapshot.value(at: a, context: .empty), snapshot.value(at: b, context: .empty),
                                 snapshot.entry("text")?.contextFree.value)
                            }
                            if x != y || text == nil { counters.torn.add(1, ordering: .relaxed) }
                            counters.reads.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            group.addTask {
                try? await onOwnThread {
                    for n in 1...publications { publish(n) }
                    counters.done.store(true, ordering: .releasing)
                }
            }
        }
        #expect(counters.torn.load(ordering: .relaxed) == 0)
        #expect(counters.reads.load(ordering: .relaxed) > 0)
        #expect(cell.snapshot.value(at: a, context: .empty) == .int(publications))
    }

    @Test func aPausedReaderKeepsItsSnapshot() async throws {
        let (cell, publish, a, _) = try Self.makeCell()
        publish(1)
        let paused = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let seen = Locked<(Value?, Value?)>((nil, nil))
        let reader = Thread {
            cell.read { snapshot in
                let before = snapshot.value(at: a, context: .empty)
                paused.signal()
                resume.wait()
                // Thousands of publications later, the snapshot this lookup holds is still whole.
                seen.withLock { $0 = (before, snapshot.entry("text")?.contextFree.value) }
            }
            paused.signal()
        }
        reader.start()
        paused.wait()
        for n in 2...5_000 { publish(n) }
        resume.signal()
        paused.wait()
        let (value, text) = seen.withLock { $0 }
        #expect(value == .int(1))
        #expect(text == .string("x"))
        #expect(cell.snapshot.value(at: a, context: .empty) == .int(5_000))
    }
}
