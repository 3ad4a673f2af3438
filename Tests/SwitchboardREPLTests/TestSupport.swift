import Foundation
import Switchboard
import SwitchboardREPL
import SwitchboardTestSupport

/// A project folder for one test: the fixture definitions copied to `flags/`, the runtime store in
/// `.switchboard/` beside them, removed when the test is done with it.
final class Project {
    private let directory = TemporaryDirectory(prefix: "switchboard-repl-test")
    var path: String { directory.path }
    var flags: String { path + "/flags" }
    var storePath: String { path + "/.switchboard/overrides.json" }

    init() {
        try! FileManager.default.copyItem(atPath: fixtures.path("flags"), toPath: flags)
    }

    /// Writes a file under the project (creating folders).
    func write(_ relative: String, _ text: String) {
        directory.write(relative, text)
    }

    /// Reads a file under the project.
    func read(_ relative: String) -> String? {
        directory.read(relative)
    }

    /// A board on the project that does not poll: tests drive changes.
    func board() throws -> Board {
        try Board(directory: flags,
                  options: Board.Options(environment: [:], pollInterval: nil, watchDefinitions: false))
    }

    /// A session on a fresh board, with colour off and no questions asked.
    func session(actor: String = "tester") throws -> Session {
        Session(board: try board(), actor: actor)
    }
}

/// This target's fixtures.
let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))

/// `text` with every ISO 8601 time replaced by `<time>`, so transcripts compare across runs.
func withoutTimes(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "<time>")
}
