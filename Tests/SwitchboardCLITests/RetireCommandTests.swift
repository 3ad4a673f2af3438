import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard retire` end to end on a copy of the references tests' retire fixture: `--dry-run` prints the
/// diff and writes nothing, a run writes every file and lists what it left, a refusal writes nothing.
struct RetireCommandTests {
    /// A copy of the fixture package (the command writes files).
    static func fixture() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory(prefix: "switchboard-retire-cli")
        let source = Repository.path("Tests/SwitchboardReferencesTests/Fixtures/Retire")
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: directory.file(name))
        }
        return directory
    }

    // The same check as refs and stale: reading no code, retire would leave every use of the key in place.
    @Test func aSourcesPathThatIsNotThereIsRefused() throws {
        let directory = try Self.fixture()
        let result = try runSwitchboard(["retire", "checkout.new_flow", "--keep", "true", "--sources", "Sourcs"],
                                        in: directory.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--sources: there is no file or folder at Sourcs"), "\(result.stderr)")
    }

    @Test func aDryRunPrintsTheDiffAndWritesNothing() throws {
        let directory = try Self.fixture()
        let before = directory.read("flags/checkout.yaml")
        let result = try runSwitchboard(["retire", "checkout.new_flow", "--keep", "true", "--dry-run"],
                                        in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("--- a/flags/checkout.yaml\n+++ b/flags/checkout.yaml\n"))
        #expect(result.stdout.contains("--- a/Sources/App/Checkout.swift\n"))
        #expect(result.stdout.contains("-    if board.value(Flags.Checkout.newFlow) {\n"))
        #expect(result.stdout.contains("left as it was: Sources/App/Leftovers.swift:7:19: `observe(…)`"))
        #expect(directory.read("flags/checkout.yaml") == before)
    }

    @Test func aRunWritesEveryFileAndTheDefinitionsStillLoad() throws {
        let directory = try Self.fixture()
        let result = try runSwitchboard(["retire", "checkout.new_flow", "--keep", "true"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("retired checkout.new_flow, keeping true: 5 files changed"))
        #expect(directory.read("Sources/App/Checkout.swift")?.contains("newFlow") == false)
        #expect(directory.read("flags/environments/production.yaml") == "overrides: {}\n")
        let validate = try runSwitchboard(["validate"], in: directory.path)
        #expect(validate.status == 0, "\(validate.stderr)")
        let get = try runSwitchboard(["get", "checkout.new_flow"], in: directory.path)
        #expect(get.status == 1)
    }

    @Test func aRuntimeOverrideIsReportedNotDeleted() throws {
        let directory = try Self.fixture()
        let set = try runSwitchboard(["set", "checkout.new_flow", "true"], in: directory.path)
        #expect(set.status == 0, "\(set.stderr)")
        let result = try runSwitchboard(["retire", "checkout.new_flow", "--keep", "true", "--dry-run"],
                                        in: directory.path)
        #expect(result.stdout.contains("note: the store holds a runtime override of checkout.new_flow (true"))
    }

    @Test func aRefusalWritesNothingAndExits1() throws {
        let directory = try Self.fixture()
        let before = directory.read("flags/checkout.yaml")
        let result = try runSwitchboard(["retire", "checkout.payments_v2", "--keep", "true"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot retire checkout.payments_v2: checkout.payments_v2 is required by checkout.wallet"))
        #expect(directory.read("flags/checkout.yaml") == before)
    }
}
