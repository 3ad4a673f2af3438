import Testing

@testable import Switchboard

/// The pieces of flagd's `fractional`: MurmurHash3, the canonical CBOR it hashes, the bucket arithmetic, and
/// the operation's handling of weights, defaults and odd inputs.
struct FractionalTests {
    // MARK: MurmurHash3 x86_32

    /// Keys with known hashes: the first two are published reference values, the rest are flagd-testbed's
    /// brute-forced preimages of the boundary hashes.
    @Test(arguments: [
        ("", UInt32(0)),
        ("hello", 0x248B_FA47),
        ("ejOoVL", 0),
        ("bY9fO-", 1),
        ("SI7p-", 2_147_483_647),
        ("6LvT0", 2_147_483_648),
        ("ceQdGm", 4_294_967_295),
    ])
    func murmurHash(_ key: String, _ expected: UInt32) {
        #expect(MurmurHash3.hash(key) == expected)
    }

    @Test func streamingMatchesOneShotAtEverySplit() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        let whole = MurmurHash3.hash(bytes)
        for split in 0...bytes.count {
            var hasher = MurmurHash3()
            hasher.combine(bytes[..<split])
            for byte in bytes[split...] { hasher.combine(byte) }
            #expect(hasher.finalize() == whole)
        }
    }

    // MARK: Canonical CBOR (RFC 8949 appendix A, plus flagd's number normalization)

    @Test(arguments: [
        (Value.int(0), "00"), (1, "01"), (23, "17"), (24, "1818"), (100, "1864"), (1000, "1903e8"),
        (1_000_000, "1a000f4240"), (1_000_000_000_000, "1b000000e8d4a51000"), (-1, "20"), (-100, "3863"),
        (-1000, "3903e7"), (.int(Int.min), "3b7fffffffffffffff"),
        (1.0, "01"), (-0.0, "00"), (-2.0, "21"), (65504.0, "19ffe0"), (1.5, "f93e00"), (1.1, "fb3ff199999999999a"),
        (-4.1, "fbc010666666666666"), (5.960464477539063e-8, "f90001"), (0.00006103515625, "f90400"),
        (3.4028234663852886e+38, "fa7f7fffff"), (1.0e+300, "fb7e37e43c8800759c"),
        (18_446_744_073_709_549_568.0, "1bfffffffffffff800"), (-9_223_372_036_854_775_808.0, "3b7fffffffffffffff"),
        (1e20, "fb4415af1d78b58c40"), (.double(.infinity), "f97c00"), (.double(.nan), "f97e00"),
        (false, "f4"), (true, "f5"), (.null, "f6"),
        ("", "60"), ("a", "6161"), ("IETF", "6449455446"), ("\u{FC}", "62c3bc"), ("\u{6C34}", "63e6b0b4"),
        ([], "80"), ([1, 2, 3], "83010203"), ([:], "a0"),
        (["a": 1, "b": [2, 3]], "a26161016162820203"),
        (["aa": 1, "b": 2], "a261620262616101"),
    ] as [(Value, String)])
    func canonicalCBOR(_ value: Value, _ hex: String) {
        let bytes = CanonicalCBOR.encode(value)
        #expect(bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined() == hex)
    }

    @Test func cborKeyOrderDoesNotDependOnInsertionOrder() {
        let a: Value = ["c": 0.0, "b": -0.0, "a": ["b": 1]]
        let b: Value = ["a": ["b": 1], "c": 0, "b": 0]
        #expect(CanonicalCBOR.encode(a) == CanonicalCBOR.encode(b))
    }

    // MARK: Bucket arithmetic

    @Test(arguments: [
        (UInt32(0), UInt64(100), UInt64(0)),
        (1, 100, 0),
        (2_147_483_647, 100, 49),
        (2_147_483_648, 100, 50),
        (4_294_967_295, 100, 99),
        (4_294_967_295, UInt64(Int32.max), UInt64(Int32.max) - 1),
    ] as [(UInt32, UInt64, UInt64)])
    func position(_ hash: UInt32, _ total: UInt64, _ expected: UInt64) {
        #expect(FractionalBucketing.position(of: hash, totalWeight: total) == expected)
    }

    @Test func defaultBucketingValueDiffersByAlgorithm() {
        #expect(FractionalBucketing.hash(flagKey: "f", targetingKey: "u", algorithm: .v2) == MurmurHash3.hash("fu"))
        let cbor: [UInt8] = [0x82, 0x61, UInt8(ascii: "f"), 0x61, UInt8(ascii: "u")]
        #expect(FractionalBucketing.hash(flagKey: "f", targetingKey: "u", algorithm: .v3) == MurmurHash3.hash(cbor))
        #expect(FractionalBucketing.hash(.string("x"), algorithm: .v2) == MurmurHash3.hash("x"))
        #expect(FractionalBucketing.hash(.string("x"), algorithm: .v3) == MurmurHash3.hash([0x61, UInt8(ascii: "x")]))
        #expect(FractionalBucketing.hash(42, algorithm: .v2) == nil)
        #expect(FractionalBucketing.hash(42, algorithm: .v3) == MurmurHash3.hash([0x18, 42]))
        #expect(FractionalBucketing.hash(.null, algorithm: .v3) == nil)
    }

    // MARK: The operation

    static func fractional(
        _ rule: String, _ data: Value, _ algorithm: FractionalAlgorithm = .v3
    ) throws -> Value {
        try JSONLogic(Value(json: rule)).apply(to: data, fractional: algorithm)
    }

    static let split = #"{"fractional": [{"var": "id"}, ["lower", 50], ["upper", 50]]}"#

    @Test(arguments: [("ejOoVL", "lower"), ("bY9fO-", "lower"), ("SI7p-", "lower"), ("6LvT0", "upper"),
                      ("ceQdGm", "upper")])
    func hashBoundariesUnderV2(_ id: String, _ expected: String) throws {
        #expect(try Self.fractional(Self.split, ["id": .string(id)], .v2) == .string(expected))
    }

    @Test func weightsAreClampedValidatedAndTotalled() throws {
        let data: Value = ["id": "ejOoVL"]  // v2 hash 0: the first bucket with any weight
        let v2 = FractionalAlgorithm.v2
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", -5], ["b", 1]]}"#, data, v2) == "b")
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", 0], ["b", 0]]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", 1.5]]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", "1"]]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", 2.0]]}"#, data, v2) == "a")
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", 2147483647]]}"#, data, v2) == "a")
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, ["a", 2147483647], ["b", 1]]}"#, data, v2)
            == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, [["a"], 1]]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, []]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}, "a"]}"#, data, v2) == .null)
        #expect(try Self.fractional(#"{"fractional": [{"var": "id"}]}"#, data, v2) == .null)
    }

    @Test func variantsAndWeightsMayBeComputed() throws {
        let rule = #"""
            {"fractional": [{"var": "id"},
                            [{"if": [{"var": "vip"}, "gold", "silver"]}, {"if": [{"var": "open"}, 1, 0]}],
                            ["closed", 1]]}
            """#
        #expect(try Self.fractional(rule, ["id": "ejOoVL", "vip": true, "open": true], .v2) == "gold")
        #expect(try Self.fractional(rule, ["id": "ejOoVL", "vip": false, "open": true], .v2) == "silver")
        #expect(try Self.fractional(rule, ["id": "ejOoVL", "vip": true, "open": false], .v2) == "closed")
    }

    @Test func shorthandUsesTheFlagKeyAndAStringTargetingKey() throws {
        let rule = #"{"fractional": [["a"], ["b"]]}"#
        let flagd: Value = ["$flagd": ["flagKey": "f"]]
        var withKey = flagd.objectValue!
        withKey["targetingKey"] = "user-1"
        let v3 = try Self.fractional(rule, .object(withKey))
        let expectedV3 = FractionalBucketing.position(
            of: FractionalBucketing.hash(flagKey: "f", targetingKey: "user-1", algorithm: .v3), totalWeight: 2)
        #expect(v3 == (expectedV3 == 0 ? "a" : "b"))
        let v2 = try Self.fractional(rule, .object(withKey), .v2)
        let expectedV2 = FractionalBucketing.position(of: MurmurHash3.hash("fuser-1"), totalWeight: 2)
        #expect(v2 == (expectedV2 == 0 ? "a" : "b"))
        // Without a string targeting key there is nothing to bucket: null, so the default variant.
        #expect(try Self.fractional(rule, flagd) == .null)
        withKey["targetingKey"] = 12345
        #expect(try Self.fractional(rule, .object(withKey)) == .null)
    }

    @Test func v3BucketsAnyNonNullValueAndV2OnlyStrings() throws {
        let rule = #"{"fractional": [{"var": "x"}, ["a", 1], ["b", 1], ["c", 1]]}"#
        let inputs: [Value] = [true, 7, 7.5, ["k": [1, .null]], "seven"]
        for input in inputs {
            #expect(try Self.fractional(rule, ["x": input]) != .null, "\(input)")
        }
        #expect(try Self.fractional(rule, ["x": 7]) == Self.fractional(rule, ["x": 7.0]))
        #expect(try Self.fractional(rule, [:]) == .null)
        #expect(try Self.fractional(rule, ["x": 7], .v2) == .null)
        #expect(try Self.fractional(rule, ["x": "seven"], .v2) != .null)
    }

    @Test func booleanBucketsMakeACondition() throws {
        let rule = #"{"if": [{"fractional": [{"var": "id"}, [false, 0], [true, 1]]}, "in", "out"]}"#
        #expect(try Self.fractional(rule, ["id": "anyone"]) == "in")
    }

    @Test func distributionFollowsTheWeights() throws {
        let rule = JSONLogic(try Value(json: #"{"fractional": [{"var": "id"}, ["a", 10], ["b", 30], ["c", 60]]}"#))
        var counts: [String: Int] = [:]
        let samples = 20_000
        for index in 0..<samples {
            let bucket = try rule.apply(to: ["id": .string("user-\(index)")])
            counts[bucket.stringValue ?? "?", default: 0] += 1
        }
        for (name, share) in [("a", 0.10), ("b", 0.30), ("c", 0.60)] {
            let observed = Double(counts[name, default: 0]) / Double(samples)
            #expect(abs(observed - share) < 0.02, "\(name): \(observed)")
        }
    }

    @Test func flagLevelAlgorithmOverridesTheEngine() throws {
        let targeting = JSONLogic(try Value(json: #"{"fractional": [{"var": "id"}, ["lower", 1], ["upper", 1]]}"#))
        var flag = FlagdFlag(key: "split", variants: ["lower": 0, "upper": 1], defaultVariant: "lower",
                             targeting: targeting)
        flag.fractionalAlgorithm = .v2
        let evaluator = FlagdEvaluator(FlagdFlagSet(flags: ["split": flag]))
        // Under v2 these hash to 2^32 - 1 and 0.
        for (id, variant) in [("ceQdGm", "upper"), ("ejOoVL", "lower")] {
            let context = EvaluationContext(attributes: ["id": .string(id)])
            #expect(evaluator.evaluate("split", context: context).variant == variant)
        }
    }
}
