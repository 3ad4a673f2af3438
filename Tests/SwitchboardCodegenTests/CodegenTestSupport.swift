import Foundation
import Switchboard
import SwitchboardCodegen
import SwitchboardTestSupport

/// Where the package's files are: tests read fixtures from the source tree (not a bundle) so that
/// `SWITCHBOARD_UPDATE_GOLDEN=1` can rewrite the golden files in place.
enum Paths {
    /// The package root.
    static let root = Repository.root

    /// This test target's fixtures.
    static let fixtures = Repository.path("Tests/SwitchboardCodegenTests/Fixtures")
}

/// The day the golden files are generated for: after `checkout.legacy_coupon_banner` expired (2026-01-15), before
/// every other example flag does.
let goldenToday = Day(year: 2026, month: 6, day: 1)

/// Loads the definitions of a folder under the package root with paths relative to the root, as
/// `switchboard generate --flags flags` run there would, so generated headers do not depend on the checkout's
/// location.
func loadDefinitions(_ relativeFolder: String, today: Day = goldenToday) -> LoadReport {
    let folder = Paths.root + "/" + relativeFolder
    let sources = DefinitionLoader.definitionFiles(in: folder).map { path in
        let relative = relativeFolder + "/" + path.dropFirst(folder.count + 1)
        return (path: relative, bytes: [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }
    return DefinitionLoader.load(sources: sources, today: today)
}

/// Loads definitions written inline, as the file `flags/test.yaml`.
func loadDefinitions(yaml: String, today: Day = goldenToday) -> LoadReport {
    DefinitionLoader.load(sources: [(path: "flags/test.yaml", bytes: Array(yaml.utf8))], today: today)
}

/// Generates source for inline definitions that must load without errors.
func generate(yaml: String, access: AccessorGenerator.Access = .internal, today: Day = goldenToday)
    -> GeneratedSource
{
    let report = loadDefinitions(yaml: yaml, today: today)
    precondition(!report.hasErrors, "fixture does not load: \(report.errors)")
    return AccessorGenerator(access: access, today: today).generate(report.registry)
}
