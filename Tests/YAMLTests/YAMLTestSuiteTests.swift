import Foundation
import Testing
import YAML
import SwitchboardTestSupport

/// The YAML test suite (yaml/yaml-test-suite, data release 2022-01-17, vendored in Fixtures/yaml-test-suite) run
/// against the `YAML` module, every case:
/// - with `in.json`: the node tree, typed by YAML 1.2's core schema and turned into JSON, equals in.json (one
///   JSON value per document, several in a row for a stream of several);
/// - with `error`: the parse fails with a problem that has a line and a column;
/// - with neither (data JSON cannot hold): the parse succeeds.
///
/// Where the module answers otherwise, the case is in ``knownDeviations`` with the reason: libyaml's own known
/// deviations from the specification, and what the module rejects by design (a second document, tags outside
/// the core schema, ...). The test fails when a listed case starts passing or an unlisted case fails.
struct YAMLTestSuiteTests {
    static let suite = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        .root.appendingPathComponent("yaml-test-suite")

    /// Every case: its id (`2G84/01` for the second of a case with several) and folder.
    static let cases: [(id: String, folder: URL)] = {
        let manager = FileManager.default
        var found: [(String, URL)] = []
        for id in (try? manager.contentsOfDirectory(atPath: suite.path)) ?? [] {
            let folder = suite.appendingPathComponent(id)
            if manager.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                found.append((id, folder))
                continue
            }
            for sub in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let subfolder = folder.appendingPathComponent(sub)
                if manager.fileExists(atPath: subfolder.appendingPathComponent("in.yaml").path) {
                    found.append((id + "/" + sub, subfolder))
                }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }()

    /// What one case gave: `nil` when it passed, else why not.
    static func outcome(_ folder: URL) -> String? {
        let manager = FileManager.default
        guard let yaml = manager.contents(atPath: folder.appendingPathComponent("in.yaml").path) else {
            return "in.yaml unreadable"
        }
        let document = YAMLParser.parse(Array(yaml), file: "in.yaml")
        if manager.fileExists(atPath: folder.appendingPathComponent("error").path) {
            guard let problem = document.problems.first else { return "accepted an invalid document" }
            guard problem.location.line >= 1, problem.location.column >= 1 else {
                return "problem without a line and column: \(problem)"
            }
            return nil
        }
        if let problem = document.problems.first { return "rejected: \(problem.message)" }
        guard let json = manager.contents(atPath: folder.appendingPathComponent("in.json").path) else { return nil }
        let expected: [JSON]
        do {
            expected = try JSON.values(Array(json))
        } catch {
            return "in.json unreadable: \(error)"
        }
        var got: [JSON] = []
        if let root = document.root {
            do {
                got = [try JSON(root)]
            } catch {
                return "no JSON for the tree: \(error)"
            }
        } else if !document.isEmpty {
            got = [.null]
        }
        return got == expected ? nil : "gave \(got), in.json holds \(expected)"
    }

    @Test func everyCaseAsTheSuiteSaysOrAKnownDeviation() throws {
        try #require(Self.cases.count == 402, "the vendored suite has 402 cases, found \(Self.cases.count)")
        var passed = 0
        var deviations = 0
        for (id, folder) in Self.cases {
            let problem = Self.outcome(folder)
            switch (problem, Self.knownDeviations[id]) {
            case (nil, nil):
                passed += 1
            case (nil, let reason?):
                Issue.record("\(id) passes but is listed as a known deviation (\(reason)): take it out of the table")
            case (let problem?, nil):
                Issue.record("\(id) (\(Self.name(folder))): \(problem)")
            case (.some, .some):
                deviations += 1
            }
        }
        let unknown = Set(Self.knownDeviations.keys).subtracting(Self.cases.map(\.id))
        #expect(unknown.isEmpty, "the table names cases the suite does not have: \(unknown.sorted())")
        print("yaml-test-suite: \(passed) passed, \(deviations) known libyaml deviations")
    }

    static func name(_ folder: URL) -> String {
        let text = (try? String(contentsOf: folder.appendingPathComponent("==="), encoding: .utf8)) ?? "?"
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Cases where the module does not answer as the suite says, each with why: libyaml's own deviations from the
    /// specification (it rejects valid input or accepts invalid input, or reads a scalar otherwise), and what
    /// the module rejects by design for configuration files (a second document, tags outside the core schema).
    static let knownDeviations: [String: String] = [
        "2JQS": "libyaml rejects valid YAML: did not find expected key",
        "2LFX": "libyaml rejects valid YAML: found unknown directive name",
        "2SXE": "libyaml rejects valid YAML: mapping values are not allowed in this context",
        "2XXW": "by design: core-schema tags only (!!set)",
        "35KP": "by design: one document per file (a stream of several)",
        "4ABK": "libyaml rejects valid YAML: found unexpected ':'",
        "4MUZ/00": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "4MUZ/01": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "4MUZ/02": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "565N": "by design: core-schema tags only (!!binary)",
        "58MP": "libyaml rejects valid YAML: did not find expected node content",
        "5MUD": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "5T43": "libyaml rejects valid YAML: did not find expected node content",
        "5TYM": "by design: core-schema tags only (!my-light)",
        "652Z": "libyaml reads \"?foo\" in a flow mapping as an explicit key",
        "6BCT": "libyaml rejects valid YAML: found character that cannot start any token",
        "6CA3": "libyaml rejects valid YAML: found character that cannot start any token",
        "6CK3": "by design: core-schema tags only (!local)",
        "6LVF": "libyaml rejects valid YAML: found unknown directive name",
        "6M2F": "libyaml rejects valid YAML: did not find expected key",
        "6WLZ": "by design: core-schema tags only (!foo)",
        "6XDY": "by design: one document per file (a stream of several)",
        "6ZKB": "by design: one document per file (a stream of several)",
        "7FWL": "by design: core-schema tags only (!bar)",
        "7Z25": "libyaml rejects valid YAML: did not find expected <document start>",
        "8XYN": "libyaml rejects valid YAML: did not find expected alphabetic or numeric character",
        "96NN/00": "libyaml rejects valid YAML: found a tab character where an indentation space is expected",
        "96NN/01": "libyaml rejects valid YAML: found a tab character where an indentation space is expected",
        "9C9N": "libyaml accepts this invalid input",
        "9DXL": "by design: one document per file (a stream of several)",
        "9JBA": "libyaml accepts this invalid input",
        "9KAX": "by design: one document per file (a stream of several)",
        "9SA2": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "9WXW": "by design: core-schema tags only (!foo)",
        "A2M4": "libyaml rejects valid YAML: found character that cannot start any token",
        "BEC7": "libyaml rejects valid YAML: found incompatible YAML document",
        "C4HZ": "by design: core-schema tags only (tag:clarkevans.com,2002:shape)",
        "CC74": "by design: core-schema tags only (tag:example.com,2000:app/foo)",
        "CFD4": "libyaml rejects valid YAML: did not find expected node content",
        "CUP7": "by design: core-schema tags only (!local)",
        "CVW2": "libyaml accepts this invalid input",
        "DBG4": "libyaml rejects valid YAML: did not find expected node content",
        "DK3J": "libyaml rejects valid YAML: did not find expected <document start>",
        "DK95/00": "libyaml rejects valid YAML: found character that cannot start any token",
        "DK95/01": "libyaml accepts this invalid input",
        "DK95/03": "libyaml rejects valid YAML: found character that cannot start any token",
        "DK95/04": "libyaml rejects valid YAML: found a tab character that violates indentation",
        "FP8R": "libyaml rejects valid YAML: did not find expected <document start>",
        "FRK4": "libyaml rejects valid YAML: found unexpected ':'",
        "G5U8": "libyaml accepts this invalid input",
        "HM87/00": "libyaml rejects valid YAML: did not find expected node content",
        "HM87/01": "libyaml reads \"?x\" in a flow sequence as an explicit key",
        "HWV9": "libyaml rejects valid YAML: did not find expected node content",
        "J7PZ": "by design: core-schema tags only (!!omap)",
        "JEF9/02": "libyaml drops a trailing line of spaces in a literal scalar",
        "JHB9": "by design: one document per file (a stream of several)",
        "K3WX": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "KSS4": "by design: one document per file (a stream of several)",
        "L24T/01": "libyaml drops a trailing line of spaces in a literal scalar",
        "L383": "by design: one document per file (a stream of several)",
        "M2N8/00": "libyaml rejects valid YAML: did not find expected key",
        "M5C3": "by design: core-schema tags only (!foo)",
        "M7A3": "libyaml rejects valid YAML: did not find expected <document start>",
        "MUS6/00": "libyaml accepts this invalid input",
        "MUS6/05": "libyaml rejects valid YAML: found unknown directive name",
        "MUS6/06": "libyaml rejects valid YAML: found unknown directive name",
        "NHX8": "libyaml rejects valid YAML: did not find expected key",
        "NJ66": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "NKF9": "libyaml rejects valid YAML: did not find expected key",
        "P76L": "by design: core-schema tags only (tag:example.com,2000:app/int)",
        "PUW8": "by design: one document per file (a stream of several)",
        "Q5MG": "libyaml rejects valid YAML: found character that cannot start any token",
        "QB6E": "libyaml accepts this invalid input",
        "QT73": "libyaml rejects valid YAML: did not find expected node content",
        "R4YG": "libyaml rejects valid YAML: found a tab character where an indentation space is expected",
        "RZT7": "by design: one document per file (a stream of several)",
        "S3PD": "libyaml rejects valid YAML: did not find expected key",
        "S98Z": "libyaml accepts this invalid input",
        "SM9W/01": "libyaml rejects valid YAML: did not find expected key",
        "SU5Z": "libyaml accepts this invalid input",
        "U9NS": "by design: one document per file (a stream of several)",
        "UGM3": "by design: core-schema tags only (tag:clarkevans.com,2002:invoice)",
        "UKK6/00": "libyaml rejects valid YAML: did not find expected key",
        "UT92": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "VJP3/01": "libyaml rejects valid YAML: did not find expected ',' or '}'",
        "W4TN": "libyaml rejects valid YAML: could not find expected directive name",
        "W5VH": "libyaml rejects valid YAML: did not find expected alphabetic or numeric character",
        "X4QW": "libyaml accepts this invalid input",
        "Y2GN": "libyaml ends an anchor name at a colon",
        "Y79Y/001": "libyaml rejects valid YAML: found a tab character where an indentation space is expected",
        "Y79Y/003": "libyaml accepts this invalid input",
        "Y79Y/010": "libyaml rejects valid YAML: found character that cannot start any token",
        "YJV2": "libyaml accepts this invalid input",
        "Z67P": "by design: core-schema tags only (!foo)",
        "Z9M4": "by design: core-schema tags only (tag:example.com,2000:app/foo)",
    ]
}

/// A JSON value, numbers compared as numbers (YAML's `1` and JSON's `1.0` are the same data).
enum JSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    struct Unrepresentable: Error, CustomStringConvertible {
        var description: String
    }

    /// A node tree under the core schema, as JSON: mapping keys are the key scalars' text.
    init(_ node: Node) throws {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .number(Double(value))
            case .double(let value):
                guard value.isFinite else { throw Unrepresentable(description: "\(scalar.text) has no JSON form") }
                self = .number(value)
            case .string: self = .string(scalar.text)
            }
        case .sequence(let items):
            self = .array(try items.map(JSON.init))
        case .mapping(let pairs):
            var object: [String: JSON] = [:]
            for pair in pairs {
                guard let key = pair.key.scalar else {
                    throw Unrepresentable(description: "a \(pair.key.kindDescription) key has no JSON form")
                }
                object[key.value == .null && key.text.isEmpty ? "" : key.text] = try JSON(pair.value)
            }
            self = .object(object)
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .array(let items): "[\(items.map(\.description).joined(separator: ", "))]"
        case .object(let pairs):
            "{" + pairs.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }
                .joined(separator: ", ") + "}"
        }
    }

    struct SyntaxError: Error {
        var offset: Int
    }

    /// Every JSON value in `bytes`, one after another (whitespace between them).
    static func values(_ bytes: [UInt8]) throws -> [JSON] {
        var reader = Reader(bytes: bytes)
        var values: [JSON] = []
        reader.skipSpace()
        while reader.offset < bytes.count {
            values.append(try reader.value())
            reader.skipSpace()
        }
        return values
    }

    /// A small recursive-descent reader: the suite's in.json files only, not a general JSON parser.
    struct Reader {
        var bytes: [UInt8]
        var offset = 0

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == byte else { throw SyntaxError(offset: offset) }
            offset += 1
        }

        mutating func literal(_ text: String, _ value: JSON) throws -> JSON {
            let utf8 = Array(text.utf8)
            guard bytes.count >= offset + utf8.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
                throw SyntaxError(offset: offset)
            }
            offset += utf8.count
            return value
        }

        mutating func value() throws -> JSON {
            skipSpace()
            guard offset < bytes.count else { throw SyntaxError(offset: offset) }
            switch bytes[offset] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                offset += 1
                var items: [JSON] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard offset < bytes.count else { throw SyntaxError(offset: offset) }
                    offset += 1
                    if bytes[offset - 1] == UInt8(ascii: "]") { return .array(items) }
                    guard bytes[offset - 1] == UInt8(ascii: ",") else { throw SyntaxError(offset: offset - 1) }
                }
            case UInt8(ascii: "{"):
                offset += 1
                var object: [String: JSON] = [:]
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(object)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    object[key] = try value()
                    skipSpace()
                    guard offset < bytes.count else { throw SyntaxError(offset: offset) }
                    offset += 1
                    if bytes[offset - 1] == UInt8(ascii: "}") { return .object(object) }
                    guard bytes[offset - 1] == UInt8(ascii: ",") else { throw SyntaxError(offset: offset - 1) }
                }
            default:
                let start = offset
                while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
                guard let number = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
                    throw SyntaxError(offset: start)
                }
                return .number(number)
            }
        }

        mutating func string() throws -> String {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw SyntaxError(offset: offset) }
            offset += 1
            var utf16: [UInt16] = []
            var raw: [UInt8] = []
            func flush() {
                utf16 += String(decoding: raw, as: UTF8.self).utf16
                raw.removeAll()
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(decoding: utf16, as: UTF16.self)
                case UInt8(ascii: "\\"):
                    guard offset < bytes.count else { throw SyntaxError(offset: offset) }
                    let escape = bytes[offset]
                    offset += 1
                    let simple: [UInt8: UInt8] = [
                        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
                        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
                    ]
                    if let replacement = simple[escape] {
                        raw.append(replacement)
                    } else if escape == UInt8(ascii: "u"), offset + 4 <= bytes.count,
                              let unit = UInt16(String(decoding: bytes[offset..<offset + 4], as: UTF8.self),
                                                radix: 16)
                    {
                        offset += 4
                        flush()
                        utf16.append(unit)
                    } else {
                        throw SyntaxError(offset: offset)
                    }
                default:
                    raw.append(byte)
                }
            }
            throw SyntaxError(offset: offset)
        }
    }
}
