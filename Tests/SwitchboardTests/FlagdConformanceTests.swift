import Foundation
import Testing
import YAML

@testable import Switchboard
import SwitchboardTestSupport

/// flagd's own conformance cases (`Fixtures/flagd-testbed`, vendored from flagd-testbed), run against the
/// JSON flag files and their YAML twins.
///
/// Left out, with the reason counted in the summary each run prints:
/// - `@fractional-v1`: flagd's first bucketing algorithm, which Switchboard does not implement.
/// - provider rows tagged `@deprecated` that expect the old FLAG_NOT_FOUND for flags without a default
///   variant: they contradict the `@no-default-variant` rows for the very same flags and contexts, which
///   describe flagd's current behavior (and agree with the evaluator cases). The other `@deprecated` rows run.
/// Rows tagged `@fractional-v2` run with the v2 algorithm selected; everything else with the default, v3.
struct FlagdConformanceTests {
    /// One way of running one case file.
    struct Run: Sendable, CustomTestStringConvertible {
        var cases: String
        var flags: String
        var options: FlagdEvaluator.Options

        var testDescription: String { "\(cases) against \(flags)" }
    }

    /// flagd-testbed's data, vendored under this target's fixtures (see its README, LICENSE and NOTICE).
    static let testbed: URL = fixtures.root.appendingPathComponent("flagd-testbed")

    /// The testbed's flagd runs with a static context value (`--context-value injectedmetadata=set`), which the
    /// context-enrichment rows read; Switchboard's equivalent is ``FlagdEvaluator/Options/staticContext``.
    static let providerOptions = FlagdEvaluator.Options(staticContext: ["injectedmetadata": "set"])

    static let runs: [Run] = [
        Run(cases: "cases/evaluator-cases.json", flags: "evaluator/flags/testkit-flags.json", options: .init()),
        Run(cases: "cases/evaluator-cases.json", flags: "yaml/testkit-flags.yaml", options: .init()),
        Run(cases: "cases/provider-cases.json", flags: "allFlags.json", options: providerOptions),
        Run(cases: "cases/provider-cases.json", flags: "yaml/allFlags.yaml", options: providerOptions),
    ]

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: testbed.appendingPathComponent(path)))
    }

    static func loadFlags(_ path: String) throws -> FlagdFlagSet {
        let (flagSet, diagnostics) = FlagdFlagSet.parse(try read(path), file: path)
        // The files hold deliberately broken flags (reported, still loaded); they must not lose any flag.
        #expect(!flagSet.flags.isEmpty)
        #expect(!diagnostics.contains { $0.message.contains("YAML") || $0.message.contains("syntax") })
        return flagSet
    }

    @Test(arguments: runs)
    func conformance(_ run: Run) throws {
        let flagSet = try Self.loadFlags(run.flags)
        let v3 = FlagdEvaluator(flagSet, options: run.options)
        var v2Options = run.options
        v2Options.fractionalAlgorithm = .v2
        let v2 = FlagdEvaluator(flagSet, options: v2Options)

        guard case .list(let rows) = try Value(jsonBytes: try Self.read(run.cases)) else {
            Issue.record("\(run.cases) is not a list")
            return
        }
        var passed = 0
        var failed: [String] = []
        var skipped: [String: Int] = [:]
        var considered = 0
        for row in rows {
            guard case .object(let fields) = row else { continue }
            let tags = fields["tags"]?.listValue?.compactMap(\.stringValue) ?? []
            if fields["supported"] == .bool(false) {
                continue
            }
            considered += 1
            if tags.contains("@fractional-v1") {
                skipped["@fractional-v1", default: 0] += 1
                continue
            }
            let evaluator = tags.contains("@fractional-v2") ? v2 : v3
            let problem = Self.check(fields, with: evaluator)
            if problem != nil, tags.contains("@deprecated"),
               fields["expect"]?.objectValue?["errorCode"] == "FLAG_NOT_FOUND" {
                // The old answer for a flag without a default variant, which the @no-default-variant rows
                // for the same flag and context replace.
                skipped["@deprecated (contradicted by @no-default-variant)", default: 0] += 1
                continue
            }
            if let problem {
                failed.append("#\(fields["id"]?.intValue ?? -1) \(fields["flag"]?.stringValue ?? "?"): \(problem)")
            } else {
                passed += 1
            }
        }
        let total = passed + failed.count
        let skips = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("flagd conformance, \(run.testDescription): \(passed)/\(total) passed "
              + "(\(considered) supported rows; left out: \(skips.isEmpty ? "none" : skips))")
        for failure in failed { Issue.record(Comment(rawValue: failure)) }
    }

    /// OpenFeature's type names as Switchboard's value types.
    static let types: [String: ValueType] = [
        "Boolean": .bool, "String": .string, "Integer": .int, "Float": .double, "Object": .object,
    ]

    /// Evaluates one case; a description of the first mismatch, or `nil` when it passes.
    static func check(_ fields: [String: Value], with evaluator: FlagdEvaluator) -> String? {
        guard let flag = fields["flag"]?.stringValue,
              let typeName = fields["type"]?.stringValue, let type = Self.types[typeName],
              case .object(let expect)? = fields["expect"]
        else { return "malformed case" }
        let context = EvaluationContext(
            targetingKey: fields["targetingKey"]?.stringValue,
            attributes: fields["context"]?.objectValue ?? [:]
        )
        let result = evaluator.evaluate(flag, as: type, default: fields["default"] ?? .null, context: context)
        let got = "got \(result.value.map(\.description) ?? "nil") \(result.reason) "
            + "\(result.errorCode?.rawValue ?? "-") variant \(result.variant ?? "-") \(result.errorMessage ?? "")"
        if let value = expect["value"], !sameValue(result.value, value) {
            return "expected value \(value); \(got)"
        }
        if let reason = expect["reason"]?.stringValue, result.reason.rawValue != reason {
            return "expected reason \(reason); \(got)"
        }
        if let variant = expect["variant"], result.variant.map(Value.string) ?? .null != variant {
            return "expected variant \(variant); \(got)"
        }
        if let code = expect["errorCode"], result.errorCode.map({ .string($0.rawValue) }) ?? .null != code {
            return "expected error code \(code); \(got)"
        }
        if let metadata = expect["metadata"]?.objectValue, !sameValue(.object(result.metadata), .object(metadata)) {
            return "expected metadata \(Value.object(metadata)); got \(Value.object(result.metadata))"
        }
        return nil
    }

    /// Equality with ints and doubles as one number type, as the cases' JSON intends.
    static func sameValue(_ lhs: Value?, _ rhs: Value) -> Bool {
        guard let lhs else { return false }
        return JS.strictEquals(lhs, rhs)
    }

    // MARK: Diagnostics of the conformance files

    @Test(arguments: ["evaluator/flags/testkit-flags.json", "yaml/testkit-flags.yaml"])
    func testkitDiagnostics(_ path: String) throws {
        let (_, diagnostics) = FlagdFlagSet.parse(try Self.read(path), file: path)
        let errors = diagnostics.filter(\.isError).map(\.description)
        // The deliberately broken flags are all reported, each at its place in the file.
        let expected = [
            "evaluator 'nonexistent_evaluator', which is not defined",
            "'sem_ver' takes 3 arguments, not 2",
            "'starts_with' takes 2 arguments, not 1",
            "'ends_with' takes 2 arguments, not 1",
            "unknown sem_ver operator \"===\"",
        ]
        for message in expected {
            #expect(errors.contains { $0.contains(message) }, "no error containing \(message) in \(errors)")
        }
        for diagnostic in diagnostics {
            #expect(diagnostic.location?.file == path)
            #expect((diagnostic.location?.line ?? 0) > 1)
        }
    }

    @Test func missingEvaluatorIsReportedWhereTheRefIsWritten() throws {
        let path = "evaluator/flags/testkit-flags.json"
        let bytes = try Self.read(path)
        let (_, diagnostics) = FlagdFlagSet.parse(bytes, file: path)
        let diagnostic = try #require(diagnostics.first { $0.message.contains("nonexistent_evaluator") })
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(diagnostic.location?.line)
        #expect(lines[line - 1].contains("\"nonexistent_evaluator\""))
        #expect(diagnostic.hint?.contains("is_ballmer") == true)
    }

    @Test func allFlagsDiagnosticsNameTheBrokenFlags() throws {
        let (_, diagnostics) = FlagdFlagSet.parse(try Self.read("yaml/allFlags.yaml"), file: "allFlags.yaml")
        let text = diagnostics.map(\.description).joined(separator: "\n")
        #expect(text.contains("unknown operation 'invalid'"))
        #expect(text.contains("targeting of flag 'missing-variant-targeting-flag' can give 'three'"))
        #expect(text.contains("'ends_with' compares strings; a number always gives null"))
        #expect(text.contains("a negative fractional weight counts as 0"))
        #expect(text.contains("every fractional weight is 0"))
    }

    // MARK: Metadata of a flag set (the testbed needs a flagd selector to serve this file)

    @Test func flagMetadataOverridesFlagSetMetadata() throws {
        let path = "flags/selector-flag-combined-metadata.json"
        let evaluator = FlagdEvaluator(try Self.loadFlags(path))
        let combined = evaluator.evaluate("combined-metadata-flag", as: .bool, default: true)
        #expect(combined.metadata == [
            "string": "a", "integer": 1, "float": 1.2, "boolean": true,
            "flag-set-string": "c", "flag-set-integer": 3, "flag-set-float": 3.2, "flag-set-boolean": false,
        ])
        let only = evaluator.evaluate("only-set-metadata-flag", as: .bool, default: true)
        #expect(only.metadata["string"] == "b")
        #expect(only.metadata["flag-set-float"] == 3.2)
        let missing = evaluator.evaluate("no-such-flag", as: .bool, default: true)
        #expect(missing.errorCode == .flagNotFound)
        #expect(missing.metadata["flag-set-string"] == "c")
    }
}

/// The flagd file model and evaluator beyond what the conformance cases cover: load diagnostics with
/// positions, typed results, and engine options.
struct FlagdEvaluatorTests {
    static func load(_ yaml: String, file: String = "flags/test.flagd.yaml") -> (FlagdFlagSet, [Diagnostic]) {
        FlagdFlagSet.parse(Array(yaml.utf8), file: file)
    }

    static let basic = """
        metadata: { team: payments, version: 1 }
        $evaluators:
          is_staff: { ends_with: [{ var: email }, "@example.com"] }
        flags:
          new-checkout:
            state: ENABLED
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [{ $ref: is_staff }, "on", null] }
            metadata: { version: 2 }
          limit:
            state: ENABLED
            variants: { small: 10.0, large: 1000, fraction: 2.5 }
            defaultVariant: small
            targeting: { if: [{ ==: [{ var: plan }, pro] }, large, { if: [{ var: odd }, fraction, null] }] }
          off-flag:
            state: DISABLED
            variants: { a: a }
            defaultVariant: a
          clock:
            state: ENABLED
            variants: { before: before, after: after }
            defaultVariant: before
            targeting: { if: [{ ">=": [{ var: $flagd.timestamp }, 1700000000] }, after, before] }
        """

    @Test func typedEvaluationCoercesNumbersAndReturnsTheCallersDefaultOnErrors() throws {
        let (flagSet, diagnostics) = Self.load(Self.basic)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let evaluator = FlagdEvaluator(flagSet)

        let staff = EvaluationContext(targetingKey: "u1", attributes: ["email": "ada@example.com"])
        let on = evaluator.evaluate("new-checkout", as: .bool, default: false, context: staff)
        #expect(on == Resolution(value: true, variant: "on", reason: .targetingMatch, layer: .default,
                                 metadata: ["team": "payments", "version": 2]))
        let off = evaluator.evaluate("new-checkout", as: .bool, default: true)
        #expect(off.value == false && off.reason == .default && off.variant == "off")

        // 10.0 is a whole number, so it is an acceptable Integer; ints widen to Float.
        #expect(evaluator.evaluate("limit", as: .int, default: 0).value == .int(10))
        #expect(evaluator.evaluate("limit", as: .double, default: 0.0,
                                   context: EvaluationContext(attributes: ["plan": "pro"])).value == .double(1000))
        let fraction = evaluator.evaluate("limit", as: .int, default: 7,
                                          context: EvaluationContext(attributes: ["odd": true]))
        #expect(fraction.value == 7 && fraction.errorCode == .typeMismatch && fraction.reason == .error)
        #expect(fraction.errorMessage == "flag 'limit' is a float, not an integer")

        let mismatch = evaluator.evaluate("new-checkout", as: .string, default: "x")
        #expect(mismatch.value == "x" && mismatch.errorCode == .typeMismatch && mismatch.variant == nil)

        let disabled = evaluator.evaluate("off-flag", as: .string, default: "fallback")
        #expect(disabled.value == "fallback" && disabled.reason == .disabled && disabled.errorCode == nil)
        #expect(evaluator.evaluate("off-flag").value == nil)

        let missing = evaluator.evaluate("nope", as: .string, default: "d")
        #expect(missing.value == "d" && missing.errorCode == .flagNotFound && missing.metadata["team"] == "payments")
        #expect(evaluator.flagKeys == ["clock", "limit", "new-checkout", "off-flag"])
    }

    @Test func timestampIsInjectedOrTakenFromTheClock() {
        let evaluator = FlagdEvaluator(Self.load(Self.basic).0)
        #expect(evaluator.evaluate("clock", timestamp: 1_600_000_000).variant == "before")
        #expect(evaluator.evaluate("clock", timestamp: 1_800_000_000).variant == "after")
        #expect(evaluator.evaluate("clock").variant == "after")
    }

    @Test func staticContextIsSeenByEveryEvaluationButTheCallerWins() {
        let yaml = """
            flags:
              region:
                state: ENABLED
                variants: { eu: eu, us: us }
                defaultVariant: us
                targeting: { if: [{ ==: [{ var: region }, eu] }, eu, us] }
            """
        let evaluator = FlagdEvaluator(Self.load(yaml).0, options: .init(staticContext: ["region": "eu"]))
        #expect(evaluator.evaluate("region").variant == "eu")
        #expect(evaluator.evaluate("region", context: EvaluationContext(attributes: ["region": "us"])).variant == "us")
    }

    @Test func mistakesAreReportedAtTheirPlaceAndBrokenFlagsStillEvaluate() throws {
        let yaml = """
            flags:
              bad-state:
                state: ON
                variants: { a: 1 }
                defaultVariant: a
              bad-default:
                state: ENABLED
                variants: { red: red, blue: blue }
                defaultVariant: rde
              typo:
                state: ENABLED
                variants: { a: 1 }
                defualtVariant: a
              unknown-op:
                state: ENABLED
                variants: { a: a, b: b }
                defaultVariant: a
                targeting: { if: [{ var: x }, a, { startswith: [{ var: y }, b] }] }
              quoted:
                state: ENABLED
                variants: { "true": 1, "false": 0 }
                defaultVariant: true
            """
        let (flagSet, diagnostics) = Self.load(yaml)
        let text = diagnostics.map(\.description)
        func expectDiagnostic(_ prefix: String, _ sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            #expect(text.contains { $0.hasPrefix(prefix) }, "no \(prefix) in \(text)", sourceLocation: sourceLocation)
        }
        let file = "flags/test.flagd.yaml"
        expectDiagnostic("\(file):3:12: error: the state of flag 'bad-state' must be ENABLED or DISABLED, not 'ON'")
        expectDiagnostic("\(file):9:21: error: the defaultVariant 'rde' of flag 'bad-default' is not one of its")
        #expect(diagnostics.first { $0.message.contains("'rde'") }?.hint == "did you mean 'red'?")
        expectDiagnostic("\(file):13:5: warning: unknown field 'defualtVariant' in flag 'typo'")
        expectDiagnostic("\(file):18:40: error: unknown operation 'startswith'")
        expectDiagnostic("\(file):22:21: error: the defaultVariant of flag 'quoted' must be a variant name")
        #expect(diagnostics.first { $0.message.contains("startswith") }?.hint == "did you mean 'starts_with'?")

        let evaluator = FlagdEvaluator(flagSet)
        #expect(evaluator.evaluate("bad-state", as: .int, default: 5).errorCode == .parseError)
        #expect(evaluator.evaluate("bad-default", as: .string, default: "x").errorCode == .general)
        // The unknown operation sits in a branch this context never reaches; flagd still rejects the rule.
        let unknown = evaluator.evaluate("unknown-op", as: .string, default: "x",
                                         context: EvaluationContext(attributes: ["x": true]))
        #expect(unknown.errorCode == .parseError && unknown.value == "x")
        #expect(evaluator.evaluate("quoted", as: .int, default: 9).value == 1)
    }

    @Test func structuralProblemsAreDiagnosedWithoutCrashing() {
        #expect(Self.load("").1.first?.message == "the flagd file is empty")
        #expect(Self.load("[1, 2]").1.first?.message.hasPrefix("a flagd file is a mapping") == true)
        #expect(Self.load("flagz: {}").1.map(\.message).contains("the file has no 'flags' mapping"))
        #expect(Self.load("flags: [a]").1.first?.message.hasPrefix("'flags' is a mapping") == true)
        #expect(Self.load("flags: {a: 1}").1.first?.message.hasPrefix("flag 'a' is a mapping") == true)
        let unclosed = Self.load("flags: {a: [}").1
        #expect(unclosed.first?.location?.line == 1)
    }

    @Test func valuesLoadLikeFilesWithoutLocations() throws {
        let value = try Value(json: #"""
            {"flags": {"f": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "a",
                             "targeting": {"fractional": [["a", 1], ["b", 1]]}}}}
            """#)
        let (flagSet, diagnostics) = FlagdFlagSet.load(value)
        #expect(diagnostics.isEmpty)
        let evaluator = FlagdEvaluator(flagSet)
        let withKey = evaluator.evaluate("f", context: EvaluationContext(targetingKey: "user-1"))
        #expect(withKey.reason == .targetingMatch)
        #expect(evaluator.evaluate("f").reason == .default)  // no targeting key: fractional gives null
    }
}
