import Foundation
import Switchboard
import SwitchboardTestSupport

/// This target's fixtures.
let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))

func openBoard(
    _ flags: String, environment: [String: String] = [:], environmentName: String? = nil, poll: Duration? = nil
) throws(LoadError) -> Board {
    try Board(inputs: BoardInputs(directory: flags, environmentName: environmentName, environment: environment),
              options: BoardOptions(pollInterval: poll))
}
