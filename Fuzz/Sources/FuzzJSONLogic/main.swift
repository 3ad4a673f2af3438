import FuzzSupport
@testable import Switchboard

/// Contexts made from the input's bytes: a targeting key and attributes of every JSON type, so rules that
/// compare, bucket and look up variables meet values of the wrong type as well as the right one.
func contexts(from bytes: [UInt8]) -> [Value] {
    var seed: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
    var generator = SplitMix(state: seed)
    let pool: [Value] = [
        .null, true, false, 0, 1, -1, 42, 2.5, -0.0, "", "a", "user-1", "1.2.3", "v2.0.0-beta", "@example.com",
        ["x", 1], [:], ["nested": ["deeper": 3]],
    ]
    var result: [Value] = [.object([:])]
    for _ in 0..<4 {
        var attributes: [String: Value] = [:]
        let names = ["targetingKey", "email", "age", "version", "tier", "user", "$flagd"]
        for name in names where generator.next() % 2 == 0 {
            attributes[name] = pool[Int(generator.next() % UInt64(pool.count))]
        }
        result.append(.object(attributes))
    }
    return result
}

/// A small deterministic generator, so a crashing input crashes again.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

// The fuzz target: the input up to its first NUL byte is a rule (JSON), the rest an evaluation context
// (JSON) when it reads as one; the rule is compiled and applied to that context and to contexts made from the
// input, with both current fractional algorithms.
fuzz { bytes in
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    guard let rule = try? Value(jsonBytes: Array(bytes[..<split])) else { return }
    var data = contexts(from: bytes)
    if split < bytes.endIndex, let context = try? Value(jsonBytes: Array(bytes[(split + 1)...])) {
        data.append(context)
    }
    let logic = JSONLogic(rule, evaluators: ["shared": rule])
    _ = logic.isConstant
    for context in data {
        for algorithm in [FractionalAlgorithm.v3, .v2] {
            _ = try? logic.apply(to: context, fractional: algorithm)
        }
    }
}
