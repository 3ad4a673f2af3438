import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// flagd's conformance cases run through the whole library: flagd files loaded from a definitions directory
/// (`*.flagd.json` and `*.flagd.yaml`) and read with `Board.details` in the type each row asks for, as an
/// application does. Every row runs or is skipped for a reason counted in ``Run/skips``; a malformed row fails.
@Suite(.serialized)
struct BoardConformanceTests {
    struct Run: Sendable, CustomTestStringConvertible {
        var cases: String
        var flags: String
        var fileName: String
        var staticContext: [String: Value]
        /// How many rows run.
        var ran: Int
        /// How many rows are skipped, by reason.
        var skips: [String: Int]
        var testDescription: String { "\(cases) against \(fileName)" }
    }

    /// The testbed's own reason for a row it marks unsupported (a flagd daemon feature), up to its first colon.
    static func unsupported(_ reason: String) -> String {
        "unsupported by the testbed: " + (reason.split(separator: ":").first.map(String.init) ?? reason)
    }

    static let fractionalV1 = "@fractional-v1: flagd's first bucketing algorithm, not implemented"
    static let deprecated = "@deprecated FLAG_NOT_FOUND for a defined flag: replaced by the @no-default-variant rows"

    static let evaluatorSkips = [fractionalV1: 15]
    static let providerSkips = [
        unsupported("unhandled step"): 108,
        unsupported("multiple evaluations (caching/change scenario)"): 11,
        unsupported("needs flagd selector / other flag source"): 9,
        fractionalV1: 15,
        deprecated: 6,
    ]

    static let runs = [
        Run(cases: "cases/evaluator-cases.json", flags: "evaluator/flags/testkit-flags.json",
            fileName: "testkit.flagd.json", staticContext: [:], ran: 125, skips: evaluatorSkips),
        Run(cases: "cases/evaluator-cases.json", flags: "yaml/testkit-flags.yaml",
            fileName: "testkit.flagd.yaml", staticContext: [:], ran: 125, skips: evaluatorSkips),
        Run(cases: "cases/provider-cases.json", flags: "allFlags.json",
            fileName: "all.flagd.json", staticContext: ["injectedmetadata": "set"], ran: 267, skips: providerSkips),
        Run(cases: "cases/provider-cases.json", flags: "yaml/allFlags.yaml",
            fileName: "all.flagd.yaml", staticContext: ["injectedmetadata": "set"], ran: 267, skips: providerSkips),
    ]

    /// What `Board.details` answered, in the untyped form a row states.
    struct Answer {
        var value: Value
        var variant: String?
        var reason: Reason
        var errorCode: ErrorCode?
    }

    /// Reads `flag` as OpenFeature's `type` names it, with the row's default as the caller's default.
    static func details(
        _ board: Board, _ flag: String, type: String, default callerDefault: Value, context: EvaluationContext
    ) -> Answer? {
        func answer<T: FlagValue>(_ defaultValue: T) -> Answer {
            let details = board.details(flag, default: defaultValue, context: context)
            return Answer(value: details.value.flagValue, variant: details.variant, reason: details.reason,
                          errorCode: details.errorCode)
        }
        switch (type, callerDefault) {
        case ("Boolean", .bool(let value)): return answer(value)
        case ("String", .string(let value)): return answer(value)
        case ("Integer", .int(let value)): return answer(value)
        case ("Float", .double(let value)): return answer(value)
        case ("Float", .int(let value)): return answer(Double(value))
        case ("Object", .object(let value)): return answer(value)
        case ("Object", .null): return answer([String: Value]())
        default: return nil
        }
    }

    @Test(arguments: runs)
    func casesPassThroughTheBoard(_ run: Run) throws {
        let directory = TemporaryDirectory()
        let bytes = try FlagdConformanceTests.read(run.flags)
        directory.write("flags/" + run.fileName, String(decoding: bytes, as: UTF8.self))
        let boards = try [FractionalAlgorithm.v3, .v2].map { algorithm in
            try Board(inputs: BoardInputs(directory: directory.path + "/flags", environment: [:]),
                      options: BoardOptions(pollInterval: nil, fractionalAlgorithm: algorithm))
        }
        let rows = try #require(try Value(jsonBytes: try FlagdConformanceTests.read(run.cases)).listValue)
        var ran = 0
        var skips: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            let fields = try #require(row.objectValue, "row \(index) is not an object")
            if fields["supported"] == .bool(false) {
                skips[Self.unsupported(fields["unsupportedReason"]?.stringValue ?? "no reason given"), default: 0] += 1
                continue
            }
            let tags = fields["tags"]?.listValue?.compactMap(\.stringValue) ?? []
            guard let flag = fields["flag"]?.stringValue, let type = fields["type"]?.stringValue,
                  case .object(let expect)? = fields["expect"]
            else {
                Issue.record("row \(index) has no flag, type or expect: \(row)")
                continue
            }
            let name = "#\(fields["id"]?.intValue ?? index) \(flag) (\(type))"
            if tags.contains("@fractional-v1") {
                skips[Self.fractionalV1, default: 0] += 1
                continue
            }
            if tags.contains("@deprecated"), expect["errorCode"] == "FLAG_NOT_FOUND", boards[0].registry[flag] != nil {
                skips[Self.deprecated, default: 0] += 1
                continue
            }
            let board = tags.contains("@fractional-v2") ? boards[1] : boards[0]
            var attributes = run.staticContext
            for (key, value) in fields["context"]?.objectValue ?? [:] { attributes[key] = value }
            let context = EvaluationContext(targetingKey: fields["targetingKey"]?.stringValue, attributes: attributes)
            guard let got = Self.details(board, flag, type: type, default: fields["default"] ?? .null,
                                         context: context)
            else {
                Issue.record("\(name): no Swift type for a \(type) with default \(fields["default"] ?? .null)")
                continue
            }
            ran += 1
            if let expected = expect["value"] {
                #expect(FlagdConformanceTests.sameValue(got.value, expected), "\(name): value")
            }
            if let expected = expect["variant"] {
                #expect(got.variant.map(Value.string) ?? .null == expected, "\(name): variant")
            }
            if let expected = expect["reason"] {
                #expect(Value.string(got.reason.rawValue) == expected, "\(name): reason")
            }
            if let expected = expect["errorCode"] {
                #expect(got.errorCode.map { .string($0.rawValue) } ?? .null == expected, "\(name): error code")
            }
        }
        let skipped = skips.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: "; ")
        print("flagd conformance through Board.details, \(run.testDescription): \(ran) run, skipped: \(skipped)")
        #expect(ran == run.ran)
        #expect(skips == run.skips)
        #expect(ran + skips.values.reduce(0, +) == rows.count)
    }
}
