import Metrics
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `UsageTracker`: evaluation counts and last times per defined key, lookups of unknown keys (at most
/// `UsageReport.unknownKeyLimit` of them), and counts that follow keys across a reload.
@Suite struct UsageTrackerTests {
    let project = TestProject(fixture: "flags")

    /// A clock the test moves: seconds since the epoch, starting at 2026-11-26T09:00:00Z. Unchecked: only the
    /// test's own task reads and moves it, one call at a time.
    final class ManualClock: @unchecked Sendable {
        private(set) var now = UsageReport.seconds(of: "2026-11-26T09:00:00Z")!
        func advance(by delta: Double) { now += delta }
    }

    @Test func countsEvaluationsAndKeepsTheLastTimeOfEach() throws {
        let board = try project.board()
        let clock = ManualClock()
        let tracker = UsageTracker(factory: NOOPMetricsHandler.instance, now: { clock.now })
        let snapshot = board.snapshot
        let newFlow = try #require(snapshot.registry.position(of: "app.new_flow"))
        let ratio = try #require(snapshot.registry.position(of: "app.ratio"))
        clock.advance(by: 60)
        tracker.evaluated([newFlow], on: snapshot)
        clock.advance(by: 60)
        tracker.evaluated([newFlow, ratio, newFlow], on: snapshot)

        let report = tracker.report(on: snapshot)
        #expect(report.since == "2026-11-26T09:00:00.000Z")
        #expect(report.keys.map(\.key) == snapshot.registry.keys)
        let byKey = Dictionary(uniqueKeysWithValues: report.keys.map { ($0.key, $0) })
        #expect(byKey["app.new_flow"]?.evaluations == 3)
        #expect(byKey["app.new_flow"]?.lastEvaluated == "2026-11-26T09:02:00.000Z")
        #expect(byKey["app.ratio"]?.evaluations == 1)
        #expect(byKey["app.theme"]?.evaluations == 0)
        #expect(byKey["app.theme"]?.lastEvaluated == nil)
        #expect(report.unknown.isEmpty)
    }

    @Test func keepsAtMostAHundredUnknownKeysMostLookedUpFirst() throws {
        let tracker = UsageTracker(factory: NOOPMetricsHandler.instance)
        for _ in 0..<3 { tracker.lookedUp(unknown: "app.new_flwo") }
        tracker.lookedUp(unknown: "app.other")
        for index in 0..<150 { tracker.lookedUp(unknown: "random.\(index)") }
        // A key already kept still counts once the cap is reached; new ones do not.
        tracker.lookedUp(unknown: "app.other")
        tracker.lookedUp(unknown: String(repeating: "x", count: 300))

        let unknown = tracker.report(on: try project.board().snapshot).unknown
        #expect(unknown.count == UsageReport.unknownKeyLimit)
        #expect(unknown.count == 100)
        #expect(Array(unknown.prefix(2)) == [
            .init(key: "app.new_flwo", lookups: 3), .init(key: "app.other", lookups: 2),
        ])
        #expect(unknown.dropFirst(2).allSatisfy { $0.lookups == 1 && $0.key.hasPrefix("random.") })
        #expect(!unknown.contains { $0.key == "random.99" })
    }

    @Test func countsFollowTheirKeysAcrossAReload() throws {
        let board = try project.board()
        let tracker = UsageTracker(factory: NOOPMetricsHandler.instance)
        let before = board.snapshot
        tracker.evaluated([try #require(before.registry.position(of: "app.ratio"))], on: before)
        // A definition added before it moves every later key's position.
        let text = try #require(project.read("flags/app.yaml"))
        let added = text.replacing("flags:\n", with: "flags:\n  added: {type: bool, default: true}\n")
        project.write("flags/app.yaml", added)
        board.reload()
        let after = board.snapshot
        #expect(after.registry.position(of: "app.ratio") != before.registry.position(of: "app.ratio"))
        let report = tracker.report(on: after)
        #expect(report.keys.first { $0.key == "app.ratio" }?.evaluations == 1)
        #expect(report.keys.first { $0.key == "app.added" }?.evaluations == 0)

        // A request that took its snapshot before the reload is counted by key against the new definitions,
        // without losing the counts of the key added since.
        tracker.evaluated([try #require(after.registry.position(of: "app.added"))], on: after)
        tracker.evaluated([try #require(before.registry.position(of: "app.ratio"))], on: before)
        let later = tracker.report(on: after)
        #expect(later.keys.first { $0.key == "app.ratio" }?.evaluations == 2)
        #expect(later.keys.first { $0.key == "app.added" }?.evaluations == 1)
    }
}
