import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing
import SwitchboardTestSupport

/// The samples of "Reading flags through ConfigReader" (SwitchboardConfiguration's catalog).
@Suite struct ConfigReaderSamples {
    @Test func readThroughConfigReader() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }

        let board = try Board(directory: flags)
        let config = ConfigReader(providers: [
            SwitchboardProvider(board: board),                  // flags and preferences first
            EnvironmentVariablesProvider(),                     // then anything else
        ])
        let newFlow = config.bool(forKey: "checkout.new_flow", default: false)
        let limit = config.int(forKey: "app.upload.max_mb", default: 25)
        let sort = config.string(forKey: "app.history.sort_order", as: SortOrder.self, default: .newestFirst)
        let limitMB = try config.requiredInt(forKey: "app.upload.max_mb")   // throws when missing or not an int
        #expect(!newFlow && limit == 25 && sort == .newestFirst && limitMB == 25)
    }

    @Test func watchAValue() async throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))
        let config = ConfigReader(provider: SwitchboardProvider(board: board))

        let writer = Task { try board.set("app.upload.max_mb", to: 100, actor: "test") }

        try await config.watchInt(forKey: "app.upload.max_mb") { updates in
            for await limit in updates {
                print("upload limit:", limit ?? 25)              // now, then after each change
                if limit == 100 { break }                        // or keep watching
            }
        }
        _ = try await writer.value
    }
}
