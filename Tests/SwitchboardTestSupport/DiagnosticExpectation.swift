public import Foundation

/// Where a fixture's problem must be reported, from an `expectations.json` beside the fixtures:
/// `{ "file.yaml": { "line": 3, "column": 7, "contains": "...", "message": "..." } }`. The YAML and the definition
/// fixtures share the format; `.ci/check-schema.py` reads `contains` too.
public struct DiagnosticExpectation: Decodable, Sendable, CustomStringConvertible {
    /// The fixture's file name.
    public var file = ""
    /// The line of the problem.
    public let line: Int
    /// The column of the problem.
    public let column: Int
    /// A part of the rendered problem (message or hint).
    public let contains: String
    /// The exact message, where the fixture states it.
    public let message: String?

    /// The file name, so a parameterized test names its fixture.
    public var description: String { file }

    private enum CodingKeys: String, CodingKey { case line, column, contains, message }

    /// Every expectation of an `expectations.json`, in file name order.
    public static func load(from url: URL) -> [DiagnosticExpectation] {
        let data = try! Data(contentsOf: url)
        return try! JSONDecoder().decode([String: DiagnosticExpectation].self, from: data).map { name, expectation in
            var expectation = expectation
            expectation.file = name
            return expectation
        }.sorted { $0.file < $1.file }
    }
}
