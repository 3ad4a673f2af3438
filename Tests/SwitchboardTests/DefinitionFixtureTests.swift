import Foundation
import Testing
@testable import Switchboard
import YAML
import SwitchboardTestSupport

/// The fixture corpus: every valid file loads cleanly; every invalid file gets its diagnostic at the exact place.
struct DefinitionFixtureTests {
    static let invalid = DiagnosticExpectation.load(
        from: fixtures.root.appendingPathComponent("invalid/expectations.json"))

    static let valid: [String] = try! FileManager.default
        .contentsOfDirectory(atPath: fixtures.root.appendingPathComponent("valid").path)
        .filter { $0.hasSuffix(".yaml") }.sorted()

    static let today = Day(year: 2026, month: 11, day: 22)

    @Test(arguments: valid)
    func validFixtureLoadsWithoutErrors(_ name: String) throws {
        let report = DefinitionLoader.load(sources: [(name, try fixtures.bytes("valid/" + name))], today: Self.today)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.registry.count > 0)
    }

    @Test func validFixturesTogetherCoverEveryField() {
        let report = DefinitionLoader.load(directory: fixtures.root.appendingPathComponent("valid").path,
                                           today: Self.today)
        #expect(!report.hasErrors)
        let definitions = report.registry.definitions
        #expect(Set(definitions.map(\.type)) == Set(ValueType.allCases))
        #expect(definitions.contains { $0.description != nil })
        #expect(definitions.contains { $0.owner != nil })
        #expect(definitions.contains { !$0.tags.isEmpty })
        #expect(definitions.contains { $0.expires != nil })
        #expect(definitions.contains { !$0.variants.isEmpty })
        #expect(definitions.contains { $0.allowedValues != nil })
        #expect(definitions.contains { $0.minimum != nil && $0.maximum != nil })
        #expect(definitions.contains { $0.pattern != nil })
        #expect(definitions.contains { !$0.renamedFrom.isEmpty })
        #expect(definitions.contains { $0.kind == .flag } && definitions.contains { $0.kind == .preference })
    }

    @Test(arguments: invalid)
    func invalidFixtureIsReportedAtItsNode(_ expectation: DiagnosticExpectation) throws {
        let report = DefinitionLoader.load(
            sources: [(expectation.file, try fixtures.bytes("invalid/" + expectation.file))], today: Self.today)
        #expect(report.errors.count == 1, "\(report.errors)")
        let error = try #require(report.errors.first)
        #expect(error.location?.line == expectation.line)
        #expect(error.location?.column == expectation.column)
        #expect(error.message == expectation.message)
        #expect(error.description.contains(expectation.contains), "\(error.description)")
    }

    @Test func duplicateDefinitionAcrossFilesNamesBothPlaces() {
        let directory = fixtures.root.appendingPathComponent("duplicate-across-files").path
        let report = DefinitionLoader.load(directory: directory)
        #expect(report.errors.map(\.description) == [
            "\(directory)/b.yaml:3:3: error: checkout.new_flow is already defined at \(directory)/a.yaml:3:3\n"
                + "  hint: a key is defined once across all files; rename or remove one of them",
        ])
    }

    @Test func allDiagnosticsOfAllFilesInFileAndLineOrder() {
        let first = "flags:\n  b:\n    type: bool\n    default: yes\n  a:\n    type: int\n    default: x\n"
        let second = "flags:\n  c:\n    typ: bool\n    default: true\n"
        let report = DefinitionLoader.load(sources: [("z.yaml", Array(second.utf8)), ("m.yaml", Array(first.utf8))])
        #expect(report.errors.map { "\($0.location!)" } == ["m.yaml:4:14", "m.yaml:7:14", "z.yaml:3:5"])
    }

    @Test func stringTypedValueKeepsWhatWasWritten() throws {
        let text = "preferences:\n  answer:\n    type: string\n    default: yes\n  version:\n    type: string\n    default: 1.10\n"
        let report = DefinitionLoader.load(sources: [("s.yaml", Array(text.utf8))])
        #expect(report.registry["answer"]?.defaultValue == .string("yes"))
        #expect(report.registry["version"]?.defaultValue == .string("1.10"))
    }

    @Test func expiredFlagIsAWarning() throws {
        let text = "flags:\n  old:\n    type: bool\n    default: true\n    expires: 2026-01-15\n"
        let report = DefinitionLoader.load(sources: [("e.yaml", Array(text.utf8))], today: Self.today)
        #expect(!report.hasErrors)
        #expect(report.warnings.map(\.description) == [
            "e.yaml:5:14: warning: flag old expired on 2026-01-15 (311 days ago)\n"
                + "  hint: remove the flag and its uses, or move `expires` later",
        ])
    }

    @Test func keysSharingAnEnvironmentVariableAreAnError() {
        let text = "flags:\n  a-b:\n    type: bool\n    default: true\n  a_b:\n    type: bool\n    default: true\n"
        let report = DefinitionLoader.load(sources: [("v.yaml", Array(text.utf8))])
        #expect(report.errors.first?.message == "a_b and a-b (v.yaml:2:3) map to the same environment variable SWITCHBOARD_A_B")
    }

    @Test func directoryLoadSkipsOverrideFilesAndIsOrdered() {
        let directory = TemporaryDirectory()
        directory.write("flags/b.yaml", "flags:\n  b:\n    type: bool\n    default: true\n")
        directory.write("flags/a/z.yml", "flags:\n  z:\n    type: bool\n    default: true\n")
        directory.write("flags/environments/dev.yaml", "overrides:\n  b: false\n")
        directory.write("flags/local.overrides.yaml", "overrides:\n  b: false\n")
        let report = DefinitionLoader.load(directory: directory.path + "/flags")
        #expect(report.registry.keys == ["z", "b"])
        #expect(!report.hasErrors)
    }
}
