/// A key as the environment variable that overrides it (`KeySyntax/environmentVariable(for:)`), hashed and
/// compared without building the variable's name: the loader checks every key for collisions.
struct EnvironmentName: Hashable {
    let key: String

    init(_ key: String) {
        self.key = key
    }

    /// Whether a key is "simple": only `a-z`, `0-9`, `_` and `.`, with no `_` next to another `_` or a `.`. A
    /// simple key's variable gives the key back (a lone `_` is `_`, a `__` is `.`), so two distinct simple keys
    /// never share a variable; only keys with `-`, capitals or such runs can.
    static func isSimple(_ key: String) -> Bool {
        // Over the bytes in place, as `KeySyntax.isValid`.
        key.utf8.withContiguousStorageIfAvailable { isSimple(bytes: $0) } ?? isSimple(bytes: Array(key.utf8))
    }

    private static func isSimple(bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "_"), UInt8(ascii: "."):
                if previous == UInt8(ascii: "_") || previous == UInt8(ascii: ".") { return false }
            default:
                return false
            }
            previous = byte
        }
        return true
    }

    /// Runs `body` on the variable's bytes (without the `SWITCHBOARD_` prefix), mapped in a stack buffer: the one
    /// place the mapping is written.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let utf8 = key.utf8
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count * 2) { buffer in
            var count = 0
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "."):
                    buffer[count] = UInt8(ascii: "_")
                    buffer[count + 1] = UInt8(ascii: "_")
                    count += 2
                    continue
                case UInt8(ascii: "-"): buffer[count] = UInt8(ascii: "_")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): buffer[count] = byte - 32
                default: buffer[count] = byte
                }
                count += 1
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: EnvironmentName, rhs: EnvironmentName) -> Bool {
        lhs.withBytes { l in rhs.withBytes { r in l.elementsEqual(r) } }
    }
}
