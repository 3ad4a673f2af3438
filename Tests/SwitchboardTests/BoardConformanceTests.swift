import Foundation
import Testing
@testable import Switchboard

/// flagd's conformance cases run through the whole library: flagd files loaded from a definitions directory
/// (`*.flagd.json` and `*.flagd.yaml`) and evaluated by `Board.resolve`, as a service or the server would.
@Suite(.serialized)
struct BoardConformanceTests {
    struct Run: Sendable, CustomTestStringConvertible {
        var cases: String
        var flags: String
        var fileName: String
        var staticContext: [String: Value]
        var testDescription: String { "\(cases) against \(fileName)" }
    }

    static let runs = [
        Run(cases: "cases/evaluator-cases.json", flags: "evaluator/flags/testkit-flags.json",
            fileName: "testkit.flagd.json", staticContext: [:]),
        Run(cases: "cases/evaluator-cases.json", flags: "yaml/testkit-flags.yaml",
            fileName: "testkit.flagd.yaml", staticContext: [:]),
        Run(cases: "cases/provider-cases.json", flags: "allFlags.json",
            fileName: "all.flagd.json", staticContext: ["injectedmetadata": "set"]),
        Run(cases: "cases/provider-cases.json", flags: "yaml/allFlags.yaml",
            fileName: "all.flagd.yaml", staticContext: ["injectedmetadata": "set"]),
    ]

    @Test(arguments: runs)
    func casesPassThroughTheBoard(_ run: Run) throws {
        let directory = TemporaryDirectory()
        let bytes = try FlagdConformanceTests.read(run.flags)
        directory.write("flags/" + run.fileName, String(decoding: bytes, as: UTF8.self))
        let boards = try [FractionalAlgorithm.v3, .v2].map { algorithm in
            var options = Board.Options(environment: [:], pollInterval: nil)
            options.fractionalAlgorithm = algorithm
            return try Board(directory: directory.path + "/flags", options: options)
        }
        guard case .list(let rows) = try Value(jsonBytes: try FlagdConformanceTests.read(run.cases)) else {
            Issue.record("cases are not a list")
            return
        }
        var passed = 0
        var failures: [String] = []
        for row in rows {
            guard case .object(let fields) = row, fields["supported"] != .bool(false) else { continue }
            let tags = fields["tags"]?.listValue?.compactMap(\.stringValue) ?? []
            if tags.contains("@fractional-v1") { continue }
            // The old answer for flags without a default variant, which the @no-default-variant rows for the same
            // flags replace (see FlagdConformanceTests).
            if tags.contains("@deprecated"), fields["expect"]?.objectValue?["errorCode"] == "FLAG_NOT_FOUND",
               let flag = fields["flag"]?.stringValue, boards[0].registry[flag] != nil
            {
                continue
            }
            guard let flag = fields["flag"]?.stringValue, let typeName = fields["type"]?.stringValue,
                  let type = FlagdConformanceTests.types[typeName], case .object(let expect)? = fields["expect"]
            else { continue }
            let board = tags.contains("@fractional-v2") ? boards[1] : boards[0]
            var attributes = run.staticContext
            for (key, value) in fields["context"]?.objectValue ?? [:] { attributes[key] = value }
            let context = EvaluationContext(targetingKey: fields["targetingKey"]?.stringValue, attributes: attributes)
            let resolution = board.resolve(flag, context: context)
            // Typed as an OpenFeature provider does: the caller's default when there is no value or it has another type.
            let callerDefault = fields["default"] ?? .null
            var value = resolution.value.flatMap(type.coerceFlagd) ?? callerDefault
            var reason = resolution.reason
            var code = resolution.errorCode
            var variant = resolution.variant
            if let got = resolution.value, type.coerceFlagd(got) == nil {
                value = callerDefault
                reason = .error
                code = .typeMismatch
                variant = nil
            }
            var problem: String?
            if let expected = expect["value"], !FlagdConformanceTests.sameValue(value, expected) {
                problem = "value \(value), expected \(expected)"
            } else if let expected = expect["reason"]?.stringValue, reason.rawValue != expected {
                problem = "reason \(reason.rawValue), expected \(expected)"
            } else if let expected = expect["variant"], variant.map(Value.string) ?? .null != expected {
                problem = "variant \(variant ?? "-"), expected \(expected)"
            } else if let expected = expect["errorCode"], code.map({ .string($0.rawValue) }) ?? .null != expected {
                problem = "error code \(code?.rawValue ?? "-"), expected \(expected)"
            }
            if let problem {
                failures.append("#\(fields["id"]?.intValue ?? -1) \(flag): \(problem)")
            } else {
                passed += 1
            }
        }
        print("flagd conformance through Board, \(run.testDescription): \(passed)/\(passed + failures.count) passed")
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(passed > 100)
    }
}
