import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard store export` and `store import`: overrides and history move between stores unchanged.
@Suite struct StoreMoveTests {
    @Test func exportImportExportIsIdentical() throws {
        let (directory, flags) = makeProject()
        for (key, value, actor) in [("app.upload.max_mb", "100", "alice"), ("app.theme", "dark", "bob"),
                                    ("app.upload.max_mb", "200", "carol")] {
            let result = try runSwitchboard(["set", "--flags", flags, "--actor", actor, key, value])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let first = directory.file("first.json")
        #expect(try runSwitchboard(["store", "export", "--flags", flags, "--to", first]).status == 0)
        let other = directory.file("other/overrides.json")
        let imported = try runSwitchboard(["store", "import", "--flags", flags, "--state", other, first])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "imported 2 overrides and 3 audit records into \(other)\n")
        let second = directory.file("second.json")
        #expect(try runSwitchboard(["store", "export", "--flags", flags, "--state", other, "--to", second]).status == 0)
        let a = try #require(directory.read("first.json"))
        #expect(a == directory.read("second.json"))
        let export = try StoreExport(json: a, source: first)
        #expect(export.contents.version == 3)
        #expect(export.contents.entries["app.upload.max_mb"]?.actor == "carol")
        #expect(export.audit.map(\.actor) == ["alice", "bob", "carol"])
        // The imported store serves the same values, with the original actors.
        let get = try runSwitchboard(["explain", "--flags", flags, "--state", other, "app.theme"])
        #expect(get.stdout.contains("set by bob at"), "\(get.stdout)")
    }

    @Test func importRefusesAStoreThatIsNotEmptyAndWritesNothing() throws {
        let (directory, flags) = makeProject()
        #expect(try runSwitchboard(["set", "--flags", flags, "app.theme", "dark"]).status == 0)
        let file = directory.file("export.json")
        #expect(try runSwitchboard(["store", "export", "--flags", flags, "--to", file]).status == 0)
        let before = directory.read(".switchboard/audit.jsonl")
        let again = try runSwitchboard(["store", "import", "--flags", flags, file])
        #expect(again.status == 1)
        #expect(again.stderr.contains("is not empty"), "\(again.stderr)")
        #expect(directory.read(".switchboard/audit.jsonl") == before)
        let garbage = directory.write("garbage.json", "{\"overrides\": 3}")
        let bad = try runSwitchboard(["store", "import", "--flags", flags, "--state", directory.file("x/o.json"),
                                      garbage])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("is not a Switchboard store export"), "\(bad.stderr)")
    }
}
