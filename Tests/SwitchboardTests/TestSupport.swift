import Foundation
import Switchboard
import SwitchboardTestSupport

/// This target's fixtures.
let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))

/// Definitions used by the layer and store tests.
let sampleDefinitions = """
    namespace: app
    flags:
      new_flow:
        type: bool
        default: false
      color:
        type: string
        variants: { control: blue, treatment: green }
        default: control
      express_pay:
        type: bool
        default: false
        renamed_from: [app.quick_pay]
    preferences:
      upload.max_mb:
        type: int
        default: 25
        min: 1
        max: 500
      theme:
        type: string
        values: [system, light, dark]
        default: system
      ratio:
        type: double
        default: 0.5
      stress.a:
        type: int
        default: 0
      stress.b:
        type: int
        default: 0
    """

/// A project folder with `flags/app.yaml` and a board on it that does not poll (tests drive changes).
func makeProject(
    definitions: String = sampleDefinitions, environment: [String: String] = [:], environmentName: String? = nil,
    poll: Duration? = nil
) -> (TemporaryDirectory, String) {
    let directory = TemporaryDirectory()
    directory.write("flags/app.yaml", definitions)
    return (directory, directory.path + "/flags")
}

func openBoard(
    _ flags: String, environment: [String: String] = [:], environmentName: String? = nil, poll: Duration? = nil
) throws(LoadError) -> Board {
    try Board(directory: flags, options: Board.Options(
        environmentName: environmentName, environment: environment, pollInterval: poll))
}
