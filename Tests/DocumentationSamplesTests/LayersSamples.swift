import Switchboard
import Testing
import SwitchboardTestSupport

/// The samples of "Layers and precedence" and "Stores: file and PostgreSQL".
@Suite struct LayersSamples {
    @Test func compareAndSet() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(directory: flags, options: BoardOptions(pollInterval: nil))

        let seen = board.storedOverride("app.upload.max_mb")?.version ?? 0   // 0: no override yet
        do {
            try board.set("app.upload.max_mb", to: 200, actor: "alice", expectedVersion: seen)
        } catch {
            print("refused:", error)              // a conflict: someone else wrote first; nothing was written
        }
        #expect(board.int("app.upload.max_mb", default: 0) == 200)
    }

    @Test func explainAKey() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let board = try Board(
            inputs: BoardInputs(directory: flags, environment: ["SWITCHBOARD_APP__UPLOAD__MAX_MB": "50"]),
            options: BoardOptions(pollInterval: nil))

        if let explanation = board.explain("app.upload.max_mb") {
            for step in explanation.steps {
                print(step.layer, step.value ?? "—", step.origin ?? "", step.status)
            }
        }
        #expect(board.int("app.upload.max_mb", default: 0) == 50)
    }

    @Test func optionsChooseTheLayers() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        project.write("flags/environments/staging.yaml", "overrides:\n  checkout.new_flow: true\n")

        let inputs = BoardInputs(
            directory: flags,
            environmentName: "staging",                       // flags/environments/staging.yaml
            statePath: "/var/lib/myservice/overrides.json")   // default: .switchboard/ beside flags/
        let options = BoardOptions(pollInterval: .milliseconds(250))   // nil: no watching
        let board = try Board(inputs: inputs, options: options)
        #expect(board.bool("checkout.new_flow", default: false))
    }
}
