import SwitchboardTestSupport
import Testing

/// `explain` lists a schedule's steps, the past ones ticked, and says what the next step serves, as a step: the
/// value itself may change sooner, when a runtime override expires.
@Suite struct ExplainScheduleTests {
    @Test func theNextStepIsNamedAsAStep() throws {
        let project = TestProject(definitions: scheduledDefinitions)
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "app.launch"])
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(explain.stdout.contains("""
              schedule:
                ✓ 2026-01-01 09:00 UTC  serve false
                → 2099-01-01 09:00 UTC  serve true  (next)
              next step: 2099-01-01 09:00 UTC → true

            """), "\(explain.stdout)")
    }
}
