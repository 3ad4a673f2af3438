import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard store export` and `store import`: overrides and history move between stores unchanged.
@Suite struct StoreMoveTests {
    @Test func exportImportExportIsIdentical() throws {
        let project = makeProject()
        for (key, value, actor) in [("app.upload.max_mb", "100", "alice"), ("app.theme", "dark", "bob"),
                                    ("app.upload.max_mb", "200", "carol")] {
            let result = try runSwitchboard(["set", "--flags", project.flags, "--actor", actor, key, value])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let first = project.file("first.json")
        #expect(try runSwitchboard(["store", "export", "--flags", project.flags, "--to", first]).status == 0)
        let other = project.file("other/overrides.json")
        let imported = try runSwitchboard(["store", "import", "--flags", project.flags, "--state", other, first])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "imported 2 overrides and 3 audit records into \(other)\n")
        let second = project.file("second.json")
        #expect(try runSwitchboard(["store", "export", "--flags", project.flags, "--state", other, "--to", second]).status == 0)
        let a = try #require(project.read("first.json"))
        #expect(a == project.read("second.json"))
        let export = try StoreExport(json: a, source: first)
        #expect(export.contents.version == 3)
        #expect(export.contents.entries["app.upload.max_mb"]?.actor == "carol")
        #expect(export.audit.map(\.actor) == ["alice", "bob", "carol"])
        // The imported store serves the same values, with the original actors.
        let get = try runSwitchboard(["explain", "--flags", project.flags, "--state", other, "app.theme"])
        #expect(get.stdout.contains("set by bob at"), "\(get.stdout)")
    }

    @Test func importRefusesAStoreThatIsNotEmptyAndWritesNothing() throws {
        let project = makeProject()
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.theme", "dark"]).status == 0)
        let file = project.file("export.json")
        #expect(try runSwitchboard(["store", "export", "--flags", project.flags, "--to", file]).status == 0)
        let before = project.read(".switchboard/audit.jsonl")
        let again = try runSwitchboard(["store", "import", "--flags", project.flags, file])
        #expect(again.status == 1)
        #expect(again.stderr.contains("is not empty"), "\(again.stderr)")
        #expect(project.read(".switchboard/audit.jsonl") == before)
        let garbage = project.write("garbage.json", "{\"overrides\": 3}")
        let bad = try runSwitchboard(["store", "import", "--flags", project.flags, "--state", project.file("x/o.json"),
                                      garbage])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("is not a Switchboard store export"), "\(bad.stderr)")
        let missing = try runSwitchboard(["store", "import", "--flags", project.flags, "--state",
                                          project.file("x/o.json"), project.file("nothere.json")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: there is no file at \(project.file("nothere.json"))\n"
            + "  hint: name a file that switchboard store export wrote"), "\(missing.stderr)")
    }
}
