import Foundation
import Switchboard
import SwitchboardREPL
import SwitchboardTestSupport

/// A project for one test: the fixture definitions copied to `flags/`, the runtime store in `.switchboard/`
/// beside them.
func replProject() -> TestProject {
    TestProject(copyingFlags: fixtures.path("flags"), prefix: "switchboard-repl-test")
}

extension TestProject {
    /// A board on the project that does not poll: tests drive changes.
    func board() throws -> Board {
        try Board(inputs: BoardInputs(directory: flags, environment: [:]),
                  options: BoardOptions(pollInterval: nil, watchDefinitions: false))
    }

    /// A session on a fresh board, with colour off and no questions asked.
    func session(actor: String = "tester") throws -> Session {
        Session(board: try board(), actor: actor)
    }
}

/// This target's fixtures.
let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
