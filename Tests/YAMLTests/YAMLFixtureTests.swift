import Foundation
import Testing
import SwitchboardTestSupport
import YAML

/// Each broken file in Fixtures/ is reported at the exact line and column, with libyaml's problem and context.
struct YAMLFixtureTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static let expectations = DiagnosticExpectation.load(from: fixtures.appendingPathComponent("expectations.json"))

    @Test(arguments: expectations)
    func reportsProblemAtExactPosition(_ expectation: DiagnosticExpectation) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(expectation.file)))
        let document = YAMLParser.parse(bytes, file: expectation.file)
        let problem = try #require(document.problems.first)
        #expect(problem.location.line == expectation.line)
        #expect(problem.location.column == expectation.column)
        #expect(problem.message.contains(expectation.contains), "\(problem.message)")
        #expect(problem.hint != nil)
        #expect(document.problems.count == 1)
    }

    @Test func emptyFileIsEmptyNotAnError() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("empty.yaml")))
        let document = YAMLParser.parse(bytes, file: "empty.yaml")
        #expect(document.isEmpty)
        #expect(document.problems.isEmpty)
        #expect(document.root == nil)
    }

    @Test func everyFixtureHasAnExpectation() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".yaml") && $0 != "empty.yaml" }
        #expect(Set(names) == Set(Self.expectations.map(\.file)))
    }

    @Test func syntaxErrorRendersAsPathLineColumn() {
        let document = YAMLParser.parse(Array("a: 'open\n".utf8), file: "flags/x.yaml")
        #expect(document.problems.map(\.description) == [
            "flags/x.yaml:2:1: error: found unexpected end of stream (while scanning a quoted scalar)\n"
                + "  hint: close the quote opened at 1:4",
        ])
    }

    @Test func anUnclosedFlowCollectionNamesWhereItOpened() {
        let document = YAMLParser.parse(Array("a: [1, 2\nb: 3\n".utf8), file: "flags/x.yaml")
        #expect(document.problems.map(\.description) == [
            "flags/x.yaml:2:2: error: did not find expected ',' or ']' (while parsing a flow sequence)\n"
                + "  hint: close the '[' opened at 1:4 with ']', or separate its items with ','",
        ])
    }

    @Test func utf16IsRejected() {
        let document = YAMLParser.parse([0xFF, 0xFE, 0x61, 0x00], file: "x.yaml")
        #expect(document.problems.first?.message.contains("UTF-16") == true)
    }
}
