import Foundation
import Switchboard
import SwitchboardReferences
import SwitchboardTestSupport

/// The fixture package `Fixtures/Shop`: definitions of every type in `flags/`, the generated keys, and one source
/// file per reference form.
enum ShopFixture {
    static let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))

    /// The package's folder.
    static let root = fixtures.path("Shop")

    /// The fixture's definitions.
    static let registry: Registry = {
        let report = DefinitionLoader.load(directory: root + "/flags")
        precondition(!report.hasErrors, "the fixture's definitions have errors: \(report.diagnostics)")
        return report.registry
    }()

    /// The scanner for the fixture's definitions.
    static let scanner = ReferenceScanner(registry: registry)

    /// Scans fixture files, each reported by its path inside the package (`Sources/Shop/Typed.swift`).
    static func scan(_ files: [String]) throws -> ScanResult {
        let sources = try files.map { file in (file: file, text: try fixtures.text("Shop/" + file)) }
        return scanner.scan(sources: sources)
    }

    /// Every Swift file of the package, by its path inside the package.
    static var allFiles: [String] {
        SwiftSourceFiles.find(in: [root + "/Sources", root + "/Tests"]).map { String($0.dropFirst(root.count + 1)) }
    }
}

/// Scans one source text, reported as `Test.swift`, against the fixture's definitions.
func scan(_ source: String) -> ScanResult {
    ShopFixture.scanner.scan(sources: [(file: "Test.swift", text: source)])
}

extension ScanResult {
    /// The references as `file:line:column form key`, in order.
    var lines: [String] {
        references.map { "\($0.position) \($0.form.rawValue) \($0.key)" }
    }

    /// The dynamic keys as `file:line:column`.
    var dynamicLines: [String] {
        dynamic.map(\.description)
    }
}
