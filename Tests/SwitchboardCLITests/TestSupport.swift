import Foundation
import Switchboard
import SwitchboardTestSupport

/// The REPL tests' fixtures (their definitions and the tour script), read from the source tree.
let fixtures = FixtureFolder(URL(fileURLWithPath: Repository.path("Tests/SwitchboardREPLTests/Fixtures")))

/// A project with the REPL tests' definitions, for the tests that run `switchboard repl`.
func replProject() -> TestProject {
    TestProject(copyingFlags: fixtures.path("flags"), prefix: "switchboard-cli-test")
}

/// A board on a project's definitions that does not poll unless asked (tests drive changes), reading an empty
/// environment.
func openBoard(_ flags: String, poll: Duration? = nil) throws(LoadError) -> Board {
    try Board(inputs: BoardInputs(directory: flags, environment: [:]), options: BoardOptions(pollInterval: poll))
}

/// A flag with a schedule (a step past, one far ahead) and a plain preference: `explain`'s timeline, `list --at`.
let scheduledDefinitions = """
    flags:
      app.launch:
        type: bool
        default: false
        schedule:
          - at: 2026-01-01T09:00:00Z
            serve: false
          - at: 2099-01-01T09:00:00Z
            serve: true
    preferences:
      app.other:
        type: int
        default: 1
    """
