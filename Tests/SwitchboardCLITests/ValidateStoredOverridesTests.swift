import SwitchboardTestSupport
import Testing

/// `validate` warns about the runtime store's overrides that no lookup serves, as every other command does: a
/// value that no longer fits its definition, and a key no definition has any more. Warnings: the exit status stays 0.
@Suite struct ValidateStoredOverridesTests {
    @Test func storedOverridesThatNoLongerApplyAreWarnedAbout() throws {
        let project = TestProject(definitions: """
            preferences:
              app.max: { type: int, default: 5, max: 500 }
              app.gone: { type: int, default: 1 }
            """)
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.max", "300"]).status == 0)
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.gone", "2"]).status == 0)
        let clean = try runSwitchboard(["validate", "--flags", project.flags])
        #expect(clean.status == 0 && clean.stdout.hasSuffix("0 errors, 0 warnings\n"), "\(clean.stdout)")
        project.write("flags/app.yaml", "preferences:\n  app.max: { type: int, default: 5, max: 100 }\n")
        let result = try runSwitchboard(["validate", "--flags", project.flags])
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning: runtime override of app.max skipped: 300 is above the maximum 100"),
                "\(result.stdout)")
        #expect(result.stdout.contains("warning: runtime override of app.gone is orphaned"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 errors, 2 warnings\n"), "\(result.stdout)")
    }
}
