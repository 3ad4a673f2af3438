import Foundation
import Logging
import Metrics
import MetricsTestKit
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// What a board counts through swift-metrics: revisions, runtime writes, failed reloads and store outages, and
/// the gauges of what it serves.
@Suite struct BoardMetricsTests {
    @Test func countsWritesAndRevisions() throws {
        let metrics = TestMetrics()
        let board = try Board.testing(yaml: shopDefinitions, metricsFactory: metrics)
        try board.set("shop.banner", to: true, actor: "test")
        try board.set("shop.page_size", to: 50, actor: "test")
        try board.reset("shop.banner", actor: "test")
        #expect(throws: Board.SetError.self) { try board.set("shop.page_size", to: 500, actor: "test") }
        #expect(try metrics.expectCounter("switchboard_runtime_writes_total").totalValue == 3)
        #expect(try metrics.expectCounter("switchboard_reloads_total").totalValue == 3)
        #expect(try metrics.expectGauge("switchboard_revision").lastValue == Double(board.revision))
        #expect(try metrics.expectGauge("switchboard_definitions").lastValue == 2)
        #expect(try metrics.expectGauge("switchboard_degraded").lastValue == 0)
    }

    @Test func countsAStoreOutageOnceAndMarksTheBoardDegradedUntilItEnds() throws {
        let metrics = TestMetrics()
        let store = InMemoryStore()
        let board = try Board.testing(yaml: shopDefinitions, store: store, metricsFactory: metrics)
        store.fail(with: StoreError(message: "the database is down"))
        // However often the board finds it down, it is one outage.
        board.refreshRuntime()
        board.refreshRuntime()
        board.refreshRuntime()
        #expect(try metrics.expectCounter("switchboard_store_outages_total").totalValue == 1)
        #expect(try metrics.expectGauge("switchboard_degraded").lastValue == 1)
        store.fail(with: nil)
        board.refreshRuntime()
        #expect(try metrics.expectGauge("switchboard_degraded").lastValue == 0)
        store.fail(with: StoreError(message: "down again"))
        board.refreshRuntime()
        #expect(try metrics.expectCounter("switchboard_store_outages_total").totalValue == 2)
    }

    @Test func countsAReloadThatDoesNotValidate() throws {
        let folder = TemporaryDirectory()
        folder.write("flags/shop.yaml", shopDefinitions)
        let metrics = TestMetrics()
        let board = try Board(inputs: BoardInputs(directory: folder.file("flags"),
                                                  statePath: folder.file("state.json"), environment: [:]),
                              options: BoardOptions(pollInterval: nil,
                                                    logger: Logger(label: "switchboard") { _ in SwiftLogNoOpLogHandler() },
                                                    metricsFactory: metrics))
        folder.write("flags/shop.yaml", shopDefinitions.replacingOccurrences(of: "default: 20", with: "default: many"))
        board.reload()
        #expect(try metrics.expectCounter("switchboard_reload_errors_total").totalValue == 1)
        #expect(try metrics.expectGauge("switchboard_degraded").lastValue == 1)
        #expect(try metrics.expectCounter("switchboard_reloads_total").totalValue == 0)
        folder.write("flags/shop.yaml", shopDefinitions.replacingOccurrences(of: "default: 20", with: "default: 30"))
        board.reload()
        #expect(try metrics.expectCounter("switchboard_reload_errors_total").totalValue == 1)
        #expect(try metrics.expectCounter("switchboard_reloads_total").totalValue == 1)
        #expect(try metrics.expectGauge("switchboard_degraded").lastValue == 0)
    }
}
