import Foundation
import Switchboard
import SwitchboardCodegen
import Testing
import SwitchboardTestSupport

/// The generated source, byte for byte, for the example definitions in `flags/` and for the keys that need care
/// in `Fixtures/edge/`. Run with `SWITCHBOARD_UPDATE_GOLDEN=1` to rewrite the golden files after an intended
/// change, then review their diff.
struct GoldenTests {
    static let isUpdating = ProcessInfo.processInfo.environment["SWITCHBOARD_UPDATE_GOLDEN"] == "1"

    @Test func exampleFlags() throws {
        let report = loadDefinitions("flags")
        #expect(report.errors.isEmpty)
        let generated = AccessorGenerator(today: goldenToday).generate(report.registry)
        #expect(generated.diagnostics.isEmpty)
        try expectGolden(generated.source, file: "ExampleFlags.swift")
    }

    @Test func edgeCases() throws {
        let report = loadDefinitions("Tests/SwitchboardCodegenTests/Fixtures/edge")
        #expect(report.errors.isEmpty)
        let generated = AccessorGenerator(today: goldenToday).generate(report.registry)
        #expect(!generated.hasErrors)
        try expectGolden(generated.source, file: "EdgeKeys.swift")
    }

    /// Compares with a golden file, or rewrites it when updating.
    private func expectGolden(_ source: String, file: String) throws {
        let path = Paths.fixtures + "/" + file
        if Self.isUpdating {
            try Data(source.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let golden = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
        guard golden != Data(source.utf8) else { return }
        let expected = String(decoding: golden, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let actual = source.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        let found = line < actual.count ? String(actual[line]) : "<end of file>"
        let wanted = line < expected.count ? String(expected[line]) : "<end of file>"
        Issue.record("""
            generated source differs from \(file) at line \(line + 1):
              expected: \(wanted)
              found:    \(found)
            run with SWITCHBOARD_UPDATE_GOLDEN=1 to accept the change, then review the diff
            """)
    }
}
