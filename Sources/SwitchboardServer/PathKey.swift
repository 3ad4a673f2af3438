/// A flag key as it arrives in a request path: percent-encoded by careful clients (`a%2Fb`, `caf%C3%A9`), raw by
/// others.
enum PathKey {
    /// The key with `%XX` escapes decoded. A malformed escape or bytes that are not UTF-8 leave the text as sent,
    /// which then simply names no flag.
    static func decode(_ raw: Substring) -> String {
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return String(raw) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return String(raw)
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(raw)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
