import Foundation
import SwitchboardTestSupport
import Testing

/// `explain --at` counts an expiring override's time left from that moment, not from now.
@Suite struct ExplainAtExpiryTests {
    @Test func theTimeLeftIsAsOfTheMomentAsked() throws {
        let project = makeProject()
        let set = try runSwitchboard(["set", "--flags", project.flags, "app.new_flow", "true", "--for", "2h"])
        #expect(set.status == 0)
        let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(110 * 60))
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "app.new_flow", "--at", later])
        let last = try #require(explain.stdout.split(separator: "\n").last.map(String.init))
        // About ten minutes left then, give or take the seconds the commands take.
        #expect(["9 min", "10 min"].contains { last.hasPrefix("the runtime override expires in " + $0) },
                "\(explain.stdout)")
        let now = try runSwitchboard(["explain", "--flags", project.flags, "app.new_flow"])
        #expect(now.stdout.contains("the runtime override expires in 1 h 59 min")
                    || now.stdout.contains("the runtime override expires in 2 h"), "\(now.stdout)")
    }
}
