import Foundation
import SwitchboardTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// No path a user gives crashes `switchboard`: each works (`set` then `get` round-trips) or is refused with exit
/// status 1 and a message. Every command runs in a project folder holding `flags/`, a folder `d`, a file `blocker`
/// and a state file `locked.json` of mode 000.
@Suite struct PathInputTests {
    /// One path given one way: `--state`, `--flags` or `SWITCHBOARD_STATE`.
    struct Row: Sendable, CustomTestStringConvertible {
        var option: String
        var path: String
        /// What the refusal says; `nil` when the path works.
        var refusal: String?

        var testDescription: String { "\(option) \(path.debugDescription)" }
    }

    static let rows: [Row] = [
        Row(option: "--state", path: "y"),
        Row(option: "--state", path: "./y"),
        Row(option: "SWITCHBOARD_STATE", path: "y"),
        Row(option: "--state", path: "missing/folders/overrides.json"),
        Row(option: "--state", path: "", refusal: "error: the override store's path is empty"),
        Row(option: "--state", path: ".", refusal: "error: the override store . is a folder, not a file"),
        Row(option: "--state", path: "d", refusal: "error: the override store d is a folder, not a file"),
        Row(option: "--state", path: "new/", refusal: "error: the override store new/ is a folder, not a file"),
        Row(option: "SWITCHBOARD_STATE", path: "/", refusal: "error: the override store / is a folder, not a file"),
        Row(option: "--state", path: "blocker/overrides.json",
            refusal: "error: the override store blocker/overrides.json cannot be created: blocker is not a folder"),
        Row(option: "--flags", path: "x", refusal: "error: definitions directory 'x' does not exist"),
        Row(option: "--flags", path: "blocker", refusal: "error: 'blocker' is a file, not a definitions directory"),
        Row(option: "--flags", path: "./flags/"),
    ]

    @Test(arguments: rows)
    func worksOrIsRefusedWithAMessage(row: Row) throws {
        try check(row)
    }

    @Test(.enabled(if: getuid() != 0, "as root every file is readable whatever its mode (the folder rows stand in)"))
    func anUnreadableStateFileIsRefused() throws {
        try check(Row(option: "--state", path: "locked.json",
                      refusal: "error: cannot read the override store locked.json"))
    }

    private func check(_ row: Row) throws {
        let project = makeProject()
        try FileManager.default.createDirectory(atPath: project.file("d"), withIntermediateDirectories: false)
        project.write("blocker", "not a folder\n")
        chmod(project.write("locked.json", "{}\n"), 0)
        var arguments = row.option == "--flags" ? [] : ["--flags", "flags"]
        var environment: [String: String] = [:]
        if row.option.hasPrefix("--") {
            arguments += [row.option, row.path]
        } else {
            environment[row.option] = row.path
        }
        let set = try runSwitchboard(["set", "app.theme", "dark"] + arguments, in: project.path,
                                     environment: environment)
        let get = try runSwitchboard(["get", "app.theme"] + arguments, in: project.path, environment: environment)
        // The commands that read only the store, beside the definitions unless named, refuse a missing folder too:
        // else a mistyped --flags read as an empty history, or exported an empty store.
        let storeOnly = row.option == "--flags" && row.refusal != nil
            ? try [["log"], ["store", "export", "--to", "-"]].map {
                try runSwitchboard($0 + arguments, in: project.path, environment: environment)
            } : []
        if let refusal = row.refusal {
            for result in [set, get] + storeOnly {
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stderr.contains(refusal), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        } else {
            #expect(set.status == 0, "\(set.stderr)")
            #expect(get.status == 0, "\(get.stderr)")
            #expect(get.stdout == "dark\n")
        }
    }
}
