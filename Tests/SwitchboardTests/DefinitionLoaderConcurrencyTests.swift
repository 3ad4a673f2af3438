import Foundation
import Testing
import SwitchboardTestSupport

@testable import Switchboard

/// A folder of many files is read and parsed on every core, then joined in path order. The registry and every
/// diagnostic, in order and byte for byte, must not depend on how many threads read the files.
struct DefinitionLoaderConcurrencyTests {
    /// A folder of 61 files: valid and invalid definitions, keys and segments defined in two files, rules on a
    /// segment and prerequisites on a flag of another file, every invalid fixture, a flagd file and a large last file.
    static func folder() throws -> String {
        let directory = NSTemporaryDirectory() + "switchboard-loader-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
        }
        for number in 0..<40 {
            // Every fifth file shares its namespace with the one before: its keys are defined twice.
            let namespace = "shop\(number - (number % 5 == 4 ? 1 : 0))"
            let text = DefinitionPipelineTests.file(count: 40 + number * 7)
                .replacingOccurrences(of: "namespace: shop", with: "namespace: \(namespace)")
            try write(String(format: number % 3 == 0 ? "nested/part-%02d.yaml" : "part-%02d.yml", number), text)
        }
        try write("requires.yaml", """
            namespace: gate
            flags:
              needs_on: { type: bool, default: false, requires: { flag: shop0.on_0, value: true } }
              needs_missing: { type: bool, default: false, requires: { flag: shop0.on_1, value: true } }
              loop_a: { type: bool, default: false, requires: { flag: gate.loop_b, value: true } }
              loop_b: { type: bool, default: false, requires: { flag: gate.loop_a, value: true } }

            """)
        let invalid = fixtures.root.appendingPathComponent("invalid").path
        for name in try manager.contentsOfDirectory(atPath: invalid) where name.hasSuffix(".yaml") {
            try manager.copyItem(atPath: invalid + "/" + name, toPath: directory + "/invalid-" + name)
        }
        let flagd = fixtures.root.appendingPathComponent("flagd-testbed/flags/testing-flags.json").path
        try manager.copyItem(atPath: flagd, toPath: directory + "/testing.flagd.json")
        // The last file is read entry by entry on two threads when there are several workers (see
        // `DefinitionLoader.reading`), where one worker reads it on one: a large one, with every kind of problem, so
        // that the second thread, when it starts in time, takes some of its entries.
        try write("zz-last.yaml", DefinitionPipelineTests.file(count: 600)
            .replacingOccurrences(of: "namespace: shop", with: "namespace: last"))
        return directory
    }

    static func summary(_ report: LoadReport) -> [String] {
        report.registry.files
            + report.registry.definitions.map {
                "\($0.key) \($0.kind) \($0.type) \($0.defaultValue) \($0.location) \($0.targeting != nil)"
                    + " \($0.targeting?.prerequisites.map(\.key) ?? [])"
            }
            + report.diagnostics.map(\.description)
    }

    @Test("one thread and many give the same registry and the same diagnostics, in the same order")
    func sameOnEveryCoreCount() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let today = Day("2026-11-22")!
        let paths = DefinitionLoader.definitionFiles(in: directory)
        #expect(paths.count > 50)
        let one = DefinitionLoader.load(paths: paths, today: today, now: 0, workers: 1)
        #expect(one.registry.count > 1000)
        #expect(one.errors.count > 100)
        #expect(one.diagnostics.contains { $0.message.contains("is already defined at") })
        #expect(one.diagnostics.contains { $0.message.contains("segment pros is already defined") })
        #expect(one.diagnostics.contains { $0.message.contains("prerequisites form a cycle") })
        for workers in [2, 3, 8] {
            let many = DefinitionLoader.load(paths: paths, today: today, now: 0, workers: workers)
            #expect(Self.summary(many) == Self.summary(one), "\(workers) workers")
        }
        #expect(Self.summary(DefinitionLoader.load(directory: directory, today: today, now: 0)) == Self.summary(one))
    }

    @Test("files in memory: the same result on one thread and on many")
    func sourcesOnEveryCoreCount() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let today = Day("2026-11-22")!
        let sources = try DefinitionLoader.definitionFiles(in: directory).map { path in
            (path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let one = DefinitionLoader.load(sources: sources, today: today, now: 0, workers: 1)
        let many = DefinitionLoader.load(sources: sources, today: today, now: 0, workers: 4)
        #expect(Self.summary(many) == Self.summary(one))
    }
}
