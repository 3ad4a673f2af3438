import Locking
import Switchboard

/// The bulk evaluation's `ETag` without evaluating anything: the server instance, the snapshot's revision and a
/// digest of the request body, so a matching `If-None-Match` is answered 304 at the cost of hashing the body.
///
/// Why a 304 is never wrong: the bulk answer depends only on the snapshot (definitions and every override layer,
/// which `revision` numbers; any change makes a new revision) and on the context, which is read from the request
/// body alone. The tag names both: another context (another body) or another revision gives another tag. The
/// instance part, random per server start, keeps a restarted server, whose revisions count from the start
/// again, from matching tags the previous one handed out. The body digest is 128 bits (two independent 64-bit
/// hashes plus the length), so two bodies in practice never share one; bodies that differ only in spacing or key
/// order get different tags, which costs a 200, never a wrong 304.
///
/// Rules that can read the clock (`$flagd.timestamp`) make the answer change without a new revision; a snapshot
/// with any such rule gets tags hashed from the response body instead (``EntityTag/init(hashing:)``).
struct BulkEntityTag {
    /// Random per process: tags of an earlier run of the server never match.
    static let instance: UInt64 = .random(in: 0 ... .max)

    /// The tag for a revision and a request body.
    static func tag(revision: UInt64, body: [UInt8]) -> EntityTag {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for byte in body {
            first = (first ^ UInt64(byte)) &* prime
            second = (second &+ UInt64(byte) &+ 1) &* 0x9e37_79b9_7f4a_7c15
            second ^= second >> 31
        }
        return EntityTag(opaque: "r" + hex(instance) + "." + String(revision, radix: 16) + "."
                            + String(body.count, radix: 16) + "." + hex(first) + hex(second))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Whether a snapshot has a rule that can read the clock, worked out once per revision.
final class ClockDependence: Sendable {
    private let cached = Locked<(revision: UInt64, readsClock: Bool)?>(nil)

    /// Whether any definition of the snapshot has targeting that can read the clock.
    func readsClock(_ snapshot: Snapshot) -> Bool {
        if let known = cached.withLock({ $0 }), known.revision == snapshot.revision { return known.readsClock }
        let readsClock = snapshot.entries.contains { $0.definition.targeting?.flag.targeting?.mayReadClock == true }
        cached.withLock { $0 = (snapshot.revision, readsClock) }
        return readsClock
    }
}
