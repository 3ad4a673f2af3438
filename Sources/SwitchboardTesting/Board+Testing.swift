public import CoreMetrics
public import Logging
public import Switchboard

extension Board {
    /// A board for tests: definitions from YAML text, no files, no environment variables, and runtime overrides
    /// in memory. Set values with `Board/set(_:to:actor:expiresAt:expectedVersion:)` as production code would; the
    /// board's lookups, `details`, `explain` and `changes` behave exactly as a board on disk does.
    ///
    /// ```swift
    /// import Switchboard
    /// import SwitchboardTesting
    ///
    /// let board = try Board.testing(yaml: """
    ///     flags:
    ///       new_flow: { type: bool, default: false }
    ///     """)
    /// try board.set("new_flow", to: true, actor: "test")
    /// #expect(board.bool("new_flow", default: false))
    /// ```
    ///
    /// - Parameters:
    ///   - yaml: one definitions file, as it would be written in `flags/`.
    ///   - overrides: runtime overrides to start with, set by the actor `test`.
    ///   - environment: `SWITCHBOARD_...` variables for the env layer.
    ///   - store: the runtime store; share one between boards to test what replicas see. The board runs on its
    ///     ``InMemoryStore/clock``: advance it to reach schedule steps and override expiries.
    ///   - logger: where the board logs (by default nowhere; pass one on swift-log's `InMemoryLogHandler` to read
    ///     what it reports).
    ///   - metricsFactory: where its metrics go (by default nowhere; swift-metrics' `TestMetrics` records them).
    ///   - evaluationEvents: whether lookups add `feature_flag.evaluation` events to the current span.
    /// - Throws: `LoadError` when the YAML has errors, or `Board/SetError` when an override does not fit.
    public static func testing(
        yaml: String, overrides: [String: Value] = [:], environment: [String: String] = [:],
        store: InMemoryStore = InMemoryStore(),
        logger: Logger = Logger(label: "switchboard") { _ in SwiftLogNoOpLogHandler() },
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance, evaluationEvents: EvaluationEvents = .off
    ) throws -> Board {
        let options = BoardOptions(pollInterval: .milliseconds(10), watchDefinitions: false, logger: logger,
                                   metricsFactory: metricsFactory, evaluationEvents: evaluationEvents,
                                   clock: store.clock)
        let inputs = BoardInputs(definitions: .sources([("flags/test.yaml", yaml)]), environment: environment,
                                 store: store)
        let board = try Board(inputs: inputs, options: options)
        for key in overrides.keys.sorted() { try board.set(key, to: overrides[key]!, actor: "test") }
        return board
    }
}
