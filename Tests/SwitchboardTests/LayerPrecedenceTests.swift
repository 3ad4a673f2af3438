import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The precedence matrix: every combination of file, env and runtime present or absent; the highest wins.
struct LayerPrecedenceTests {
    static let combinations: [(file: Bool, env: Bool, runtime: Bool)] = [false, true].flatMap { file in
        [false, true].flatMap { env in [false, true].map { runtime in (file, env, runtime) } }
    }

    @Test(arguments: 0..<8)
    func highestLayerWins(_ index: Int) throws {
        let (file, env, runtime) = Self.combinations[index]
        let project = makeProject()
        if file { project.write("flags/environments/dev.yaml", "overrides:\n  app.upload.max_mb: 10\n") }
        let environment = env ? ["SWITCHBOARD_APP__UPLOAD__MAX_MB": "20"] : [:]
        let board = try openBoard(project.flags, environment: environment, environmentName: file ? "dev" : nil)
        if runtime { try board.set("app.upload.max_mb", to: 30, actor: "test") }
        let expected: (Int, Layer) = runtime ? (30, .runtime) : env ? (20, .env) : file ? (10, .file) : (25, .default)
        let resolution = board.resolve("app.upload.max_mb")
        #expect(resolution.value == .int(expected.0))
        #expect(resolution.layer == expected.1)
        #expect(board.int("app.upload.max_mb", default: -1) == expected.0)
    }

    @Test func localOverridesFileSitsAboveTheEnvironmentFile() throws {
        let project = makeProject()
        project.write("flags/environments/dev.yaml", "overrides:\n  app.theme: dark\n  app.ratio: 0.25\n")
        project.write("flags/local.overrides.yaml", "overrides:\n  app.theme: light\n")
        let board = try openBoard(project.flags, environmentName: "dev")
        #expect(board.string("app.theme", default: "") == "light")
        #expect(board.double("app.ratio", default: 0) == 0.25)
    }

    @Test func invalidValuesAreSkippedWithAWarningAndTheNextLayerApplies() throws {
        let project = makeProject()
        project.write("flags/environments/dev.yaml", "overrides:\n  app.theme: dark\n  app.upload.max_mb: 9000\n")
        let board = try openBoard(project.flags, environment: ["SWITCHBOARD_APP__THEME": "purple"], environmentName: "dev")
        #expect(board.string("app.theme", default: "") == "dark")
        #expect(board.resolve("app.theme").layer == .file)
        #expect(board.int("app.upload.max_mb", default: -1) == 25)
        let warnings = board.status.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("SWITCHBOARD_APP__THEME skipped: purple is not an allowed value of app.theme") })
        #expect(warnings.contains { $0.contains("dev.yaml:3:22: warning: override of app.upload.max_mb skipped: 9000 is above the maximum 500") })
    }

    @Test func aBadValueInALaterFileFallsBackToAnEarlierFile() throws {
        let project = makeProject()
        project.write("flags/environments/dev.yaml", "overrides:\n  app.theme: dark\n")
        project.write("flags/local.overrides.yaml", "overrides:\n  app.theme: purple\n")
        let board = try openBoard(project.flags, environmentName: "dev")
        #expect(board.string("app.theme", default: "") == "dark")
        #expect(board.status.warnings.contains { $0.message.contains("override of app.theme skipped: purple") })
    }

    @Test func envValuesAreParsedByType() throws {
        let project = makeProject()
        let board = try openBoard(project.flags, environment: [
            "SWITCHBOARD_APP__NEW_FLOW": "true", "SWITCHBOARD_APP__RATIO": "2", "SWITCHBOARD_APP__COLOR": "green",
        ])
        #expect(board.bool("app.new_flow", default: false))
        #expect(board.resolve("app.ratio").value == .double(2))
        #expect(board.resolve("app.color").variant == "treatment")
    }

    @Test func yesInTheEnvironmentIsNotABool() throws {
        let project = makeProject()
        let board = try openBoard(project.flags, environment: ["SWITCHBOARD_APP__NEW_FLOW": "yes"])
        #expect(board.resolve("app.new_flow").layer == .default)
        #expect(board.status.warnings.contains {
            $0.hint == "write true (only true and false are booleans in YAML 1.2)"
        })
    }

    @Test func missingEnvironmentFileIsAnError() {
        let project = makeProject()
        #expect(throws: LoadError.self) { try openBoard(project.flags, environmentName: "staging") }
    }

    @Test func overrideFileDiagnosticsHavePositions() {
        let project = makeProject()
        project.write("flags/local.overrides.yaml", "overides:\n  app.theme: dark\n")
        do {
            _ = try openBoard(project.flags)
            Issue.record("expected a load error")
        } catch {
            #expect(error.diagnostics.first?.description == "\(project.flags)/local.overrides.yaml:1:1: error: unknown field "
                + "'overides' in an override file\n  hint: did you mean 'overrides'?")
        }
    }
}
