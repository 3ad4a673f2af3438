import Foundation
import Switchboard
import SwitchboardCodegen
import Testing
import SwitchboardTestSupport

/// Generated source compiles against the real `Switchboard` module, in the Swift 6 language mode (complete
/// concurrency checking) with warnings as errors, together with a file that uses its keys.
///
/// The `Examples/` package's build (`.ci/examples.sh`) is the end-to-end check through the build plugin; this one
/// is quick and covers the names that need escaping.
struct CompileTests {
    @Test(arguments: [
        ("flags", "ExampleFlagsUsage.swift", AccessorGenerator.Access.internal),
        ("flags", "ExampleFlagsUsage.swift", .public),
        ("Tests/SwitchboardCodegenTests/Fixtures/edge", "EdgeKeysUsage.swift", .internal),
        ("Tests/SwitchboardCodegenTests/Fixtures/edge", "EdgeKeysUsage.swift", .public),
    ])
    func generatedSourceCompiles(folder: String, usage: String, access: AccessorGenerator.Access) throws {
        let modules = try #require(BuildProducts.modules, "no Switchboard.swiftmodule near \(BuildProducts.folder)")
        let report = loadDefinitions(folder)
        #expect(report.registry.count > 0 && !report.hasErrors, "\(report.registry.files) \(report.diagnostics)")
        let generated = AccessorGenerator(access: access, today: goldenToday).generate(report.registry)
        #expect(!generated.hasErrors)
        let directory = TemporaryDirectory()
        let keys = directory.write("Keys.swift", generated.source)
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
            "-I", modules.path, "-I", Paths.root + "/Sources/CLibYAML",
            "-I", Paths.root + "/Sources/CReaderCache/include",
            "-module-name", "GeneratedKeys", keys, Paths.fixtures + "/" + usage,
        ])
        #expect(result.status == 0, "swiftc: \(result.stderr)")
        withExtendedLifetime(directory) {}
    }
}
