import Switchboard
import Testing

/// A schedule step's mistakes are told like any other: the key, what was found, a hint; a misspelt field once.
struct ScheduleStepDiagnosticsTests {
    static func errors(_ step: String) -> [String] {
        let yaml = "flags:\n  app.launch:\n    type: bool\n    default: false\n    schedule:\n"
            + "      - at: 2027-01-05T09:00:00Z\n" + step
        let report = DefinitionLoader.load(sources: [("flags/s.yaml", Array(yaml.utf8))])
        return report.diagnostics.filter(\.isError).map(\.description)
    }

    @Test func anEnabledThatIsNoBoolNamesTheKeyAndWhatWasFound() {
        #expect(Self.errors("        enabled: maybe\n") == [
            "flags/s.yaml:7:18: error: enabled of app.launch: expected a bool, found the string \"maybe\"\n"
                + "  hint: write true or false",
        ])
        #expect(Self.errors("        enabled: no\n") == [
            "flags/s.yaml:7:18: error: enabled of app.launch: expected a bool, found the string \"no\"\n"
                + "  hint: write false (only true and false are booleans in YAML 1.2)",
        ])
    }

    @Test func weightsOfZeroNameTheKeyWithAHint() {
        #expect(Self.errors("        rollout: [{ value: true, weight: 0 }, { value: false, weight: 0 }]\n") == [
            "flags/s.yaml:7:18: error: the rollout weights of app.launch add up to 0\n"
                + "  hint: give at least one value a weight above 0; weights are shares of the whole",
        ])
    }

    @Test func aMisspeltFieldIsTheOneError() {
        #expect(Self.errors("        serv: true\n") == [
            "flags/s.yaml:7:9: error: unknown field 'serv' in a schedule step of app.launch\n"
                + "  hint: did you mean 'serve'?",
        ])
    }
}
