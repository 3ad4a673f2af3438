import SwitchboardTestSupport
import Testing

/// `explain` shows each layer's value whole: the value column is as wide as its widest value. It used to cut every
/// value at 14 characters, so a runtime override of 123456789012345678 read as 12345678901234.
struct ExplainValueColumnTests {
    let project = TestProject(definitions: """
        namespace: app
        preferences:
          offset:
            type: int
            default: 0
            description: an offset
        """, prefix: "switchboard-cli-test")

    @Test func aLongValueIsShownWholeAndTheColumnsStayInLine() throws {
        let set = try runSwitchboard(["set", "app.offset", "--", "123456789012345678"], in: project.path)
        #expect(set.status == 0, "\(set.stderr)")
        let explained = try runSwitchboard(["explain", "app.offset"], in: project.path)
        #expect(explained.status == 0, "\(explained.stderr)")
        let layers = explained.stdout.split(separator: "\n").dropFirst().prefix(4).map(String.init)
        #expect(layers[0].hasPrefix("  runtime  123456789012345678 set by "))
        #expect(layers[1] == "  env      —                  SWITCHBOARD_APP__OFFSET not set")
        #expect(layers[2] == "  file     —                  no override file sets it")
        #expect(layers[3] == "  default  0                  flags/app.yaml:5:14  (shadowed)")
    }
}
