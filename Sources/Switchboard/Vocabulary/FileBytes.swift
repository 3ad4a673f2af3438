#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes read with `pread`, the one place that does it: straight into the array returned, with no buffer in
/// between when the caller knows about how large the file is.
enum FileBytes {
    /// How much each read asks for when the size is not known, or beyond it.
    static let chunkSize = 65_536

    /// The bytes of the open file `descriptor` from `start` up to `end` (or to the end of the file); `nil` when a
    /// read fails. The first read asks for `expectedSize` bytes (its size when it was listed, say) and becomes the
    /// array returned; whatever follows, if the file has grown, is appended in chunks.
    static func read(_ descriptor: Int32, from start: Int = 0, upTo end: Int = .max, expectedSize: Int? = nil)
        -> [UInt8]?
    {
        var bytes: [UInt8] = []
        var position = start
        while position < end {
            let wanted = min(bytes.isEmpty ? max(1, expectedSize ?? chunkSize) : chunkSize, end - position)
            var failed = false
            let chunk = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
                while true {
                    let got = pread(descriptor, buffer.baseAddress, wanted, off_t(position))
                    if got >= 0 {
                        count = got
                        return
                    }
                    if errno != EINTR {
                        failed = true
                        return
                    }
                }
            }
            if failed { return nil }
            if chunk.isEmpty { break }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            position += chunk.count
        }
        return bytes
    }
}
