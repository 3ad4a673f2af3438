import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard refs` on the references tests' fixture package: the `--json` document, paths relative to the
/// current directory, a `--sources` path that is not there, `--strict` and `--allow-unreferenced`.
struct RefsCommandTests {
    /// The fixture package, read from the source tree (the command writes nothing).
    static let shop = Repository.path("Tests/SwitchboardReferencesTests/Fixtures/Shop")

    static func json(_ arguments: [String], in directory: String = shop) throws -> (Int32, [String: Any]) {
        let result = try runSwitchboard(["refs", "--json"] + arguments, in: directory)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result.status, try #require(object, "not a JSON object: \(result.stdout) \(result.stderr)"))
    }

    @Test func theJSONDocumentHasTheIssuesShape() throws {
        let (status, document) = try Self.json([])
        #expect(status == 0)
        #expect(Set(document.keys) == ["definitions", "undefined", "dynamic", "unreferenced"])
        let definitions = try #require(document["definitions"] as? [[String: Any]])
        #expect(definitions.count == 14)
        #expect(definitions.allSatisfy { Set($0.keys) == ["key", "references"] })
        let newFlow = try #require(definitions.first { $0["key"] as? String == "shop.new_flow" })
        let references = try #require(newFlow["references"] as? [[String: Any]])
        #expect(references.allSatisfy { Set($0.keys) == ["file", "line", "column", "form"] })
        let described = references.map { "\($0["file"]!):\($0["line"]!):\($0["column"]!) \($0["form"]!)" }
        #expect(described == [
            "Sources/Shop/FlagKeys.swift:3:23 flagkey",
            "Sources/Shop/Platform.swift:5:20 string",
            "Sources/Shop/Strings.swift:4:20 string",
            "Sources/Shop/Typed.swift:4:20 typed",
            "Sources/Shop/Typed.swift:10:9 typed",
            "Tests/ShopTests/ShopTests.swift:5:13 typed",
        ])
        let maxItems = try #require(definitions.first { $0["key"] as? String == "shop.max_items" })
        let forms = (maxItems["references"] as? [[String: Any]])?.compactMap { $0["form"] as? String }
        #expect(forms == ["config", "flagkey", "string", "typed"])

        let undefined = try #require(document["undefined"] as? [[String: Any]])
        #expect(undefined.allSatisfy { Set($0.keys) == ["key", "file", "line", "column", "suggestion"] })
        let typo = try #require(undefined.first { $0["key"] as? String == "shop.new_flwo" })
        #expect(typo["file"] as? String == "Sources/Shop/Strings.swift")
        #expect(typo["line"] as? Int == 11 && typo["column"] as? Int == 22)
        #expect(typo["suggestion"] as? String == "shop.new_flow")
        let unknown = try #require(undefined.first { $0["key"] as? String == "inventory.count" })
        #expect(unknown["suggestion"] is NSNull)

        let dynamic = try #require(document["dynamic"] as? [[String: Any]])
        #expect(dynamic.count == 7)
        #expect(dynamic.allSatisfy { Set($0.keys) == ["file", "line", "column"] })
        #expect(dynamic.first?["file"] as? String == "Sources/Shop/Config.swift")
        #expect(dynamic.first?["line"] as? Int == 11 && dynamic.first?["column"] as? Int == 33)

        #expect(document["unreferenced"] as? [String] == ["shop.legacy_banner", "shop.partner_only"])
    }

    // Read as no code at all, a misspelt path would list every definition as unreferenced.
    @Test func aSourcesPathThatIsNotThereIsRefused() throws {
        let result = try runSwitchboard(["refs", "--sources", "Sources", "Nowhere"], in: Self.shop)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--sources: there is no file or folder at Nowhere"), "\(result.stderr)")
    }

    // Run away from the package's code, every definition would look unused with nothing to say why; `stale` says
    // the same.
    @Test func readingNoSwiftFileIsSaid() throws {
        let project = TestProject(definitions: "flags:\n  app.one: {type: bool, default: true}\n")
        for arguments in [["refs"], ["refs", "--json"]] {
            let result = try runSwitchboard(arguments + ["--flags", project.flags], in: project.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(
                "warning: no Swift files were read, so every definition is listed as unreferenced"), "\(result.stderr)")
        }
    }

    @Test func pathsAreRelativeToTheCurrentDirectoryAndSourcesDefaultBesideTheDefinitions() throws {
        let parent = URL(fileURLWithPath: Self.shop).deletingLastPathComponent().path
        let (_, document) = try Self.json(["--flags", "Shop/flags"], in: parent)
        let undefined = try #require(document["undefined"] as? [[String: Any]])
        #expect(undefined.first?["file"] as? String == "Shop/Sources/Shop/FlagKeys.swift")
    }

    @Test func sourcesNamesTheFilesAndFoldersToRead() throws {
        let (_, document) = try Self.json(["--sources", "Tests", "Sources/Shop/Comments.swift"])
        let definitions = try #require(document["definitions"] as? [[String: Any]])
        let referenced = definitions.filter { !(($0["references"] as? [Any])?.isEmpty ?? true) }
        #expect(referenced.compactMap { $0["key"] as? String } == ["shop.new_flow"])
        #expect((document["undefined"] as? [Any])?.isEmpty == true)
    }

    @Test func strictFailsOnUndefinedKeysAndUnreferencedDefinitions() throws {
        let failing = try runSwitchboard(["refs", "--strict"], in: Self.shop)
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("--strict: 4 undefined key reads, 2 definitions without a reference"))
        // Definitions only read by other programs are allowed by glob; the undefined keys still fail.
        let allowed = try runSwitchboard(
            ["refs", "--strict", "--allow-unreferenced", "shop.legacy_*", "shop.partner_only"], in: Self.shop)
        #expect(allowed.status == 1)
        #expect(allowed.stderr.contains("--strict: 4 undefined key reads\n"))
        #expect(allowed.stdout.contains("shop.partner_only  (no references; allowed)"))
        let clean = try runSwitchboard(["refs", "--strict", "--sources", "Sources/Shop/Typed.swift",
                                        "Sources/Shop/Reader.swift", "--allow-unreferenced", "*"], in: Self.shop)
        #expect(clean.status == 0, "\(clean.stderr)")
        let lenient = try runSwitchboard(["refs"], in: Self.shop)
        #expect(lenient.status == 0)
    }

    @Test func theTextReportGroupsByKeyAndSuggestsForUnknownKeys() throws {
        let result = try runSwitchboard(["refs"], in: Self.shop)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "shop.limits  (2 references)"))
        #expect(Array(lines[start...(start + 3)]) == [
            "shop.limits  (2 references)",
            "  Sources/Shop/Strings.swift:10:51  string",
            "  Sources/Shop/Typed.swift:9:43     typed",
            "shop.legacy_banner  (no references)",
        ])
        // The columns line up: under a key, its places and forms; among the undefined keys, the keys too.
        #expect(lines.contains(
            "  shop.new_flwo    Sources/Shop/Strings.swift:11:22  string: did you mean 'shop.new_flow'?"))
        #expect(lines.contains("  inventory.count  Sources/Shop/Strings.swift:12:19  string"))
        #expect(lines.contains("  Sources/Shop/Dynamic.swift:5:20"))
        #expect(lines.last(where: { !$0.isEmpty })
            == "10 Swift files read: 12 of 14 definitions referenced, 2 unreferenced, 4 undefined, 7 dynamic.")
    }

    /// The command plugin's tool is the same command: the same document, the same exit status.
    @Test func theLeanToolPrintsTheSameReport() throws {
        let tool = BuildProducts.folder.appendingPathComponent("SwitchboardRefs")
        let lean = try runProcess(tool, ["--json", "--strict"], in: Self.shop)
        let full = try runSwitchboard(["refs", "--json", "--strict"], in: Self.shop)
        #expect(lean.status == 1 && full.status == 1)
        #expect(lean.stdout == full.stdout)
        #expect(lean.stdout.hasPrefix("{"))
    }

    @Test func brokenDefinitionsFailBeforeAnySourceIsRead() throws {
        let project = TestProject(definitions: "flags:\n  a: {type: bool}\n")
        let result = try runSwitchboard(["refs", "--flags", project.flags], in: project.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no references were read"))
    }
}
