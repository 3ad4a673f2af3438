// flagd's `fractional` operation: deterministic percentage splits.
//
// `{"fractional": [bucketing value, [variant, weight], ...]}` hashes the bucketing value (by default the
// flag key with the targeting key) with MurmurHash3 x86_32, seed 0, maps the hash onto the total weight
// (`hash * total >> 32`) and returns the variant whose cumulative weight range holds it. Variants and
// weights may be computed by nested rules; a variant may be any scalar (booleans make `fractional` a
// condition). Weights are whole numbers, negative ones count as 0, and they may add up to `Int32.max`.

/// Which bucketing algorithm flagd's `fractional` operation uses.
public enum FractionalAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// flagd's earlier algorithm: MurmurHash3 over the UTF-8 bytes of a string bucketing value (by default the
    /// flag key followed by the targeting key); non-string bucketing values select nothing.
    case v2
    /// flagd's current algorithm: MurmurHash3 over the canonical CBOR encoding of the bucketing value, which
    /// may be any non-null, non-array value (by default the array `[flagKey, targetingKey]`).
    case v3
}

/// The hashing and bucket arithmetic of `fractional`, separate from rule evaluation so it can be tested alone.
enum FractionalBucketing {
    /// The hash of an explicit bucketing value: v3 hashes any non-null value's canonical CBOR; v2 hashes a
    /// string's UTF-8 bytes. `nil` when the algorithm cannot bucket the value (so `fractional` gives `null`).
    static func hash(_ value: Value, algorithm: FractionalAlgorithm) -> UInt32? {
        var hasher = MurmurHash3()
        switch (algorithm, value) {
        case (_, .null), (_, .list):
            return nil
        case (.v2, .string(let text)):
            hasher.combine(text)
        case (.v2, _):
            return nil
        case (.v3, _):
            CanonicalCBOR.encode(value, into: &hasher)
        }
        return hasher.finalize()
    }

    /// The hash used without an explicit bucketing value: v3 hashes the CBOR array `[flagKey, targetingKey]`,
    /// v2 the concatenated string `flagKey + targetingKey`.
    static func hash(flagKey: String, targetingKey: String, algorithm: FractionalAlgorithm) -> UInt32 {
        var hasher = MurmurHash3()
        switch algorithm {
        case .v2:
            hasher.combine(flagKey)
            hasher.combine(targetingKey)
        case .v3:
            hasher.combine(0x82)  // the head of a CBOR array of two items
            CanonicalCBOR.encode(text: flagKey, into: &hasher)
            CanonicalCBOR.encode(text: targetingKey, into: &hasher)
        }
        return hasher.finalize()
    }

    /// Where a hash falls in `0..<totalWeight`: a multiply and shift, so every weight unit gets an equal share
    /// of the 2^32 hashes (to within one) and no floating point is involved.
    static func position(of hash: UInt32, totalWeight: UInt64) -> UInt64 {
        (UInt64(hash) * totalWeight) >> 32
    }
}

/// The buckets of a `fractional` whose buckets are all written out literally (the usual case): checked,
/// weighed and summed once when compiling, so evaluating is a hash and a scan of the cumulative weights.
struct FractionalTable: Sendable {
    /// Each bucket's variant.
    let names: [Value]
    /// Each bucket's cumulative weight: bucket `i` holds positions `ends[i-1]..<ends[i]`.
    let ends: [UInt64]
    /// The sum of the weights, in `1...Int32.max`.
    let total: UInt64

    /// The table, or `nil` when a bucket is malformed or the weights add up to 0 or past `Int32.max` (the
    /// operation then gives `null`).
    init?(buckets: [Value]) {
        var names: [Value] = []
        var ends: [UInt64] = []
        var total: UInt64 = 0
        for value in buckets {
            guard let (name, weight) = FractionalBucketing.bucket(value) else { return nil }
            total += weight
            guard total <= UInt64(Int32.max) else { return nil }
            names.append(name)
            ends.append(total)
        }
        guard total > 0 else { return nil }
        self.names = names
        self.ends = ends
        self.total = total
    }

    /// The variant a hash falls to.
    func pick(_ hash: UInt32) -> Value {
        let position = FractionalBucketing.position(of: hash, totalWeight: total)
        for (index, end) in ends.enumerated() where position < end {
            return names[index]
        }
        return .null  // unreachable: the last end is the total, which every position is below
    }
}

extension FractionalBucketing {
    /// A bucket's variant and weight: `[variant, weight]`, or `[variant]` for a weight of 1. Negative
    /// weights count as 0; fractional weights, non-numbers and list or object variants make the whole
    /// operation `null`.
    static func bucket(_ value: Value) -> (Value, UInt64)? {
        guard case .list(let items) = value, let name = items.first else { return nil }
        switch name {
        case .list, .object: return nil
        default: break
        }
        guard items.count > 1 else { return (name, 1) }
        switch items[1] {
        case .int(let weight):
            guard weight <= Int(Int32.max) else { return nil }
            return (name, UInt64(max(weight, 0)))
        case .double(let weight):
            guard weight == weight.rounded(.towardZero), weight <= Double(Int32.max) else { return nil }
            return (name, weight > 0 ? UInt64(weight) : 0)
        case .null:
            return (name, 1)
        default:
            return nil
        }
    }
}

extension LogicRun {
    /// The hash without an explicit bucketing value, or `nil` when the targeting key is absent or not a string.
    private func defaultHash(in scope: Value?) -> UInt32? {
        if scope == nil, isFlagEvaluation, let targetingKey {
            // The usual case, answered without walking the paths below.
            return FractionalBucketing.hash(flagKey: flagKey, targetingKey: targetingKey, algorithm: algorithm)
        }
        guard case .string(let targetingKey)? = lookup(Self.targetingKeyPath, in: scope) else { return nil }
        let flagKey = lookup(Self.flagKeyPath, in: scope)?.stringValue ?? ""
        return FractionalBucketing.hash(flagKey: flagKey, targetingKey: targetingKey, algorithm: algorithm)
    }

    /// `fractional` with its buckets compiled into a table. `bucketing` is `nil` for the shorthand form.
    func fractional(
        bucketing: LogicNode?, table: FractionalTable?, args: [LogicNode], in scope: Value?
    ) throws(JSONLogicError) -> Value {
        let hash: UInt32
        if let bucketing {
            let value = try evaluate(bucketing, in: scope)
            // A first argument computing a list is a bucket after all: leave it to the general form.
            if case .list = value { return try fractional(args, in: scope) }
            guard let valueHash = FractionalBucketing.hash(value, algorithm: algorithm) else { return .null }
            hash = valueHash
        } else {
            guard let shorthandHash = defaultHash(in: scope) else { return .null }
            hash = shorthandHash
        }
        return table?.pick(hash) ?? .null
    }

    /// `fractional` in general: picks a bucket by hashing the bucketing value, or gives `null` (the default
    /// variant) when there is nothing valid to hash or no weight to share.
    func fractional(_ args: [LogicNode], in scope: Value?) throws(JSONLogicError) -> Value {
        guard let firstNode = args.first else { return .null }
        let first = try evaluate(firstNode, in: scope)
        let hash: UInt32
        let buckets: ArraySlice<LogicNode>
        if case .list = first {
            guard let shorthandHash = defaultHash(in: scope) else { return .null }
            hash = shorthandHash
            buckets = args[...]
        } else {
            guard let valueHash = FractionalBucketing.hash(first, algorithm: algorithm) else { return .null }
            hash = valueHash
            buckets = args.dropFirst()
        }

        // Two passes (weights, then the pick) instead of collecting the evaluated buckets in an array.
        var total: UInt64 = 0
        for node in buckets {
            guard let (_, weight) = FractionalBucketing.bucket(try evaluate(node, in: scope)) else { return .null }
            total += weight
            if total > UInt64(Int32.max) { return .null }
        }
        guard total > 0 else { return .null }
        let target = FractionalBucketing.position(of: hash, totalWeight: total)
        var end: UInt64 = 0
        for node in buckets {
            guard let (name, weight) = FractionalBucketing.bucket(try evaluate(node, in: scope)) else { return .null }
            end += weight
            if target < end { return name }
        }
        return .null
    }
}
