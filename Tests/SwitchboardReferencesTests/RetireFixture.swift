import Foundation
import Switchboard
import SwitchboardReferences
import SwitchboardTestSupport

/// The fixture package `Fixtures/Retire`, copied into a temporary folder for each test (retiring writes files):
/// definitions in block style with comments, two environments' override files, and Swift code with every form
/// `retire` rewrites or leaves.
struct RetireFixture {
    let directory = TemporaryDirectory(prefix: "switchboard-retire")

    init() throws {
        let source = ShopFixture.fixtures.path("Retire")
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: directory.file(name))
        }
    }

    /// The fixture's definitions.
    var registry: Registry {
        let report = DefinitionLoader.load(directory: directory.file("flags"))
        precondition(!report.hasErrors, "the fixture's definitions have errors: \(report.diagnostics)")
        return report.registry
    }

    /// The plan for retiring `key` with the value `keep`, over the fixture's files.
    func plan(_ key: String, keep: String) throws(Retirement.Refusal) -> Retirement {
        let registry = registry
        return try Retirement.plan(
            key: key, keep: keep, registry: registry, definitionFiles: registry.files,
            overrideFiles: ["staging", "production"].map { directory.file("flags/environments/\($0).yaml") },
            sources: SwiftSourceFiles.find(in: [directory.file("Sources")]))
    }

    /// A file's text after the plan, or the text now when the plan does not change it.
    func after(_ relative: String, in plan: Retirement) -> String? {
        plan.changes.first { $0.path == directory.file(relative) }?.after ?? directory.read(relative)
    }
}
