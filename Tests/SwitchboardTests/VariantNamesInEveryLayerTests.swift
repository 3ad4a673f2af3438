import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// A variant's name means that variant's value wherever an override is written: `set` (and through it the REPL, the
/// console and the admin API's `text`), a `SWITCHBOARD_…` variable and an override file, as a definition's
/// `default` does. A name that is also a variant's value means that value, everywhere alike.
struct VariantNamesInEveryLayerTests {
    static let definitions = """
        flags:
          app.color:
            type: string
            variants: {on: x, off: y}
            default: off
          app.swapped:
            type: string
            variants: {red: blue, blue: red}
            default: red
          app.level:
            type: int
            variants: {low: 1, high: 2, "1": 5}
            default: low
        """

    /// The value and variant `written` gives `key` in each layer, in order: runtime (`set`), env, file.
    func answers(_ key: String, _ written: String) throws -> [String] {
        let project = TestProject(definitions: Self.definitions)
        project.write("flags/environments/dev.yaml", "overrides:\n  \(key): \(written)\n")
        let variable = KeySyntax.environmentVariable(for: key)
        let file = try openBoard(project.flags, environmentName: "dev")
        let env = try openBoard(project.flags, environment: [variable: written])
        let runtime = try openBoard(project.flags)
        try runtime.set(key, text: written, actor: "test")
        #expect(file.status.warnings.isEmpty, "\(file.status.warnings)")
        #expect(env.status.warnings.isEmpty, "\(env.status.warnings)")
        return [runtime, env, file].map { board in
            let resolution = board.resolve(key)
            return "\(resolution.value.map(\.plainText) ?? "-") \(resolution.variant ?? "-")"
        }
    }

    @Test func aNameMeansItsVariantsValueInEveryLayer() throws {
        #expect(try answers("app.color", "on") == Array(repeating: "x on", count: 3))
        #expect(try answers("app.level", "high") == Array(repeating: "2 high", count: 3))
    }

    @Test func aNameThatIsAlsoAValueMeansTheValueInEveryLayer() throws {
        #expect(try answers("app.swapped", "red") == Array(repeating: "red blue", count: 3))
        #expect(try answers("app.level", "1") == Array(repeating: "1 low", count: 3))
    }

    @Test func aValueStillWorksAndNeitherIsSkippedWithAWarning() throws {
        #expect(try answers("app.color", "y") == Array(repeating: "y off", count: 3))
        let project = TestProject(definitions: Self.definitions)
        let board = try openBoard(project.flags, environment: ["SWITCHBOARD_APP__COLOR": "maybe"])
        #expect(board.resolve("app.color").layer == .default)
        #expect(board.status.warnings.map(\.message) == [
            "SWITCHBOARD_APP__COLOR skipped: \"maybe\" is not the value of any variant of app.color",
        ])
    }
}
