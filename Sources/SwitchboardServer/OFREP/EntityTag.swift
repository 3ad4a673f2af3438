/// A strong entity tag computed from a response body, and the `If-None-Match` test against it (RFC 9110 §8.8.3,
/// §13.1.2).
///
/// The tag hashes the exact bytes sent, so it changes exactly when the body does: a bulk evaluation whose flags
/// resolve as before for the same context keeps its tag across reloads, and a client polling with
/// `If-None-Match` gets 304 until something it would see changes.
struct EntityTag: Hashable, CustomStringConvertible {
    /// The tag without quotes: the body's length and a 64-bit hash of it, in hex.
    let opaque: String

    /// The tag of a body.
    ///
    /// The hash is FNV-1a taken eight bytes at a time, with a shift after each step that carries high bits down
    /// (each step stays invertible, so two bodies that differ in one word always differ in hash). A body of
    /// 100 KB hashes in a few microseconds; byte by byte took longer than writing it.
    init(hashing body: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        body.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
                hash = (hash ^ word) &* prime
                hash ^= hash >> 29
            }
            for byte in raw[(words * 8)...] {
                hash = (hash ^ UInt64(byte)) &* prime
            }
        }
        let hex = String(hash, radix: 16)
        opaque = String(body.count, radix: 16) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A tag with the given opaque part (no quotes).
    init(opaque: String) {
        self.opaque = opaque
    }

    /// The header form, quoted: `"1f4-00a1b2c3d4e5f607"`.
    var description: String { "\"\(opaque)\"" }

    /// Whether any `If-None-Match` header value names this tag, or is `*`.
    ///
    /// Each value is a comma-separated list; `W/` weak tags match their strong twin (If-None-Match uses weak
    /// comparison). An unquoted tag, which some clients send, is read up to the next comma.
    func isMatched(byIfNoneMatch values: some Sequence<String>) -> Bool {
        values.contains { Self.tags(in: $0).contains { $0 == "*" || $0 == opaque } }
    }

    /// The tags of one header value, without `W/` and quotes; `*` stays `*`.
    static func tags(in header: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = header[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { return tags }
            if rest.hasPrefix("W/") { rest = rest.dropFirst(2) }
            if rest.first == "\"" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: "\"") ?? body.endIndex
                tags.append(body[..<end])
                rest = end == body.endIndex ? body[end...] : body[body.index(after: end)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                tags.append(rest[..<end].trimmingSuffix { $0 == " " || $0 == "\t" })
                rest = rest[end...]
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
