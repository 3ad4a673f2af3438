/// MurmurHash3, x86 32-bit variant: the hash flagd's `fractional` operator buckets with.
///
/// Streaming, so a CBOR encoder can feed it directly and the hot path hashes without building a byte array.
struct MurmurHash3 {
    private static let c1: UInt32 = 0xcc9e_2d51
    private static let c2: UInt32 = 0x1b87_3593

    private var h1: UInt32
    /// Bytes not yet making up a whole 4-byte block, packed little-endian.
    private var pending: UInt32 = 0
    private var pendingCount = 0
    private var length = 0

    /// Starts a hash with a seed (flagd uses 0).
    init(seed: UInt32 = 0) {
        h1 = seed
    }

    /// The hash of some bytes.
    static func hash(_ bytes: some Sequence<UInt8>, seed: UInt32 = 0) -> UInt32 {
        var hasher = MurmurHash3(seed: seed)
        hasher.combine(bytes)
        return hasher.finalize()
    }

    /// The hash of a string's UTF-8 bytes.
    static func hash(_ string: String, seed: UInt32 = 0) -> UInt32 {
        var hasher = MurmurHash3(seed: seed)
        hasher.combine(string)
        return hasher.finalize()
    }

    @inline(__always)
    private static func mix(_ block: UInt32) -> UInt32 {
        var k = block &* c1
        k = (k << 15) | (k >> 17)
        return k &* c2
    }

    @inline(__always)
    private mutating func consume(block: UInt32) {
        h1 ^= Self.mix(block)
        h1 = (h1 << 13) | (h1 >> 19)
        h1 = h1 &* 5 &+ 0xe654_6b64
    }

    /// Adds one byte.
    @inline(__always)
    mutating func combine(_ byte: UInt8) {
        pending |= UInt32(byte) << (8 * UInt32(pendingCount))
        pendingCount += 1
        length += 1
        if pendingCount == 4 {
            consume(block: pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// Adds bytes.
    mutating func combine(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            combine(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            for byte in bytes { combine(byte) }
        }
    }

    /// Adds a string's UTF-8 bytes.
    mutating func combine(_ string: String) {
        var string = string
        string.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Adds raw bytes, a whole block at a time once the pending bytes are used up.
    mutating func combine(_ buffer: UnsafeRawBufferPointer) {
        var index = 0
        let count = buffer.count
        while pendingCount != 0 && index < count {
            combine(buffer[index])
            index += 1
        }
        while count - index >= 4 {
            consume(block: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
            index += 4
            length += 4
        }
        while index < count {
            combine(buffer[index])
            index += 1
        }
    }

    /// The hash of everything added.
    func finalize() -> UInt32 {
        var h = h1
        if pendingCount > 0 {
            h ^= Self.mix(pending)
        }
        h ^= UInt32(truncatingIfNeeded: length)
        h ^= h >> 16
        h = h &* 0x85eb_ca6b
        h ^= h >> 13
        h = h &* 0xc2b2_ae35
        h ^= h >> 16
        return h
    }
}
