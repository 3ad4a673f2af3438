import Foundation
import Locking
import Switchboard
@testable import SwitchboardRemote
import SwitchboardTestSupport
import Synchronization
import Testing

/// The remote board's snapshot cell is the core's (``SnapshotCell``): readers on every core while answers are
/// installed without pause see one whole answer each time, and a reader paused inside a lookup keeps reading valid
/// memory however many answers replace it (the old cell freed a replaced snapshot after 60 seconds, whoever still
/// read it). Run it under Thread Sanitizer and Address Sanitizer with `scripts/sanitizers.sh`.
@Suite struct RemotePublicationStressTests {
    /// An answer in which both keys of the pair hold `n`.
    private static func snapshot(_ n: Int) -> RemoteSnapshot {
        func flag(_ value: Value) -> RemoteFlag {
            RemoteFlag(value: value, variant: nil, reason: "STATIC", errorCode: nil, errorDetails: nil, metadata: [:])
        }
        return RemoteSnapshot(flags: [
            "pair.a": flag(.int(n)), "pair.b": flag(.int(n)),
            "text": flag(.string(String(repeating: "x", count: n % 64 + 1))),
        ], source: .server)
    }

    @Test func readersAlwaysSeeAWholeAnswer() async throws {
        let cell = SnapshotCell(Self.snapshot(0))
        let publications = 20_000
        let counters = StressCounters()
        let readers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    try? await onOwnThread {
                        while !counters.done.load(ordering: .acquiring) {
                            let (x, y, text) = cell.read { ($0.value("pair.a"), $0.value("pair.b"), $0.value("text")) }
                            if x != y || text == nil { counters.torn.add(1, ordering: .relaxed) }
                            counters.reads.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            group.addTask {
                try? await onOwnThread {
                    for n in 1...publications { cell.replace(with: Self.snapshot(n)) }
                    counters.done.store(true, ordering: .releasing)
                }
            }
        }
        #expect(counters.torn.load(ordering: .relaxed) == 0)
        #expect(counters.reads.load(ordering: .relaxed) > 0)
        #expect(cell.snapshot.value("pair.a") == .int(publications))
    }

    @Test func aPausedReaderKeepsItsAnswer() async throws {
        let cell = SnapshotCell(Self.snapshot(1))
        let paused = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let seen = Locked<(Value?, Value?)>((nil, nil))
        let reader = Thread {
            cell.read { snapshot in
                let before = snapshot.value("pair.a")
                paused.signal()
                resume.wait()
                // Thousands of answers later, the snapshot this lookup holds is still whole.
                seen.withLock { $0 = (before, snapshot.value("text")) }
            }
            paused.signal()
        }
        reader.start()
        paused.wait()
        for n in 2...5_000 { cell.replace(with: Self.snapshot(n)) }
        resume.signal()
        paused.wait()
        let (value, text) = seen.withLock { $0 }
        #expect(value == .int(1))
        #expect(text == .string("xx"))
        #expect(cell.snapshot.value("pair.a") == .int(5_000))
    }
}
