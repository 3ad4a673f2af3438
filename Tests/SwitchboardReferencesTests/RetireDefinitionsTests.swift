import Switchboard
import SwitchboardReferences
import SwitchboardTestSupport
import Testing

/// `Retirement` on the definitions and override files: the block and the comment lines directly above it go, the
/// rest of the file stays byte for byte, and the key leaves every override file.
struct RetireDefinitionsTests {
    @Test func theBlockAndItsCommentGoAndTheRestStays() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        let yaml = try #require(fixture.after("flags/checkout.yaml", in: plan))
        #expect(yaml == """
            # The definitions of the retire fixture: a flag to retire in block style, its neighbours untouched.
            namespace: checkout

            flags:
              # How many cards a user can keep.
              max_cards:
                type: int
                default: 3

              button_color:
                type: string
                variants: { control: blue, treatment: green }
                default: control

              payments_v2: { type: bool, default: true }

              wallet:
                type: bool
                default: false
                requires: { flag: checkout.payments_v2, value: true }

            """)
    }

    @Test func theKeyLeavesEveryOverrideFile() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        #expect(fixture.after("flags/environments/staging.yaml", in: plan) == """
            # Staging values.
            overrides:
              checkout.max_cards: 5

            """)
        // The last entry gone, the map stays, empty.
        #expect(fixture.after("flags/environments/production.yaml", in: plan) == "overrides: {}\n")
    }

    @Test func aMapLeftEmptyIsRemoved() throws {
        let fixture = try RetireFixture()
        let plan = try fixture.plan("app.greeting", keep: "Hi")
        #expect(fixture.after("flags/app.yaml", in: plan) == "namespace: app\n")
    }

    @Test func aDryRunChangesNothingAndWriteChangesEverything() throws {
        let fixture = try RetireFixture()
        let before = fixture.directory.read("flags/checkout.yaml")
        let plan = try fixture.plan("checkout.new_flow", keep: "true")
        #expect(plan.diff.contains("--- a/\(fixture.directory.file("flags/checkout.yaml"))"))
        #expect(plan.diff.contains("-  new_flow:\n"))
        #expect(fixture.directory.read("flags/checkout.yaml") == before)
        try plan.write()
        for change in plan.changes {
            #expect(fixture.directory.read(String(change.path.dropFirst(fixture.directory.path.count + 1)))
                == change.after)
        }
        #expect(fixture.registry["checkout.new_flow"] == nil)
        #expect(fixture.registry.count == 5)
    }
}
