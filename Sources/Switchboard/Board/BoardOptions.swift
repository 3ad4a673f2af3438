public import CoreMetrics
public import Logging

/// How a board behaves: how it watches its inputs, how it buckets rollouts, and where it reports. Where the inputs
/// come from (definitions, override files, environment, store) is ``BoardInputs``.
///
/// ```swift
/// let board = try Board(directory: "flags", options: BoardOptions(pollInterval: .milliseconds(200)))
/// ```
public struct BoardOptions: Sendable {
    /// How often to check the runtime store and the definition files for changes; `nil` turns watching off.
    public var pollInterval: Duration?
    /// Whether a change to definition or override files reloads them (the runtime store is always watched
    /// when polling is on).
    public var watchDefinitions: Bool
    /// The bucketing algorithm of rollouts and flagd `fractional` for definitions that do not choose one:
    /// flagd's current ``FractionalAlgorithm/v3``, or ``FractionalAlgorithm/v2`` to keep assignments made
    /// before flagd's switch.
    public var fractionalAlgorithm: FractionalAlgorithm
    /// Where the board logs what it handles on its own: failed reloads (with their diagnostics), override
    /// values it skipped, and store outages. The default goes through the process's `LoggingSystem`.
    public var logger: Logger
    /// Where the board's counters and gauges go (`switchboard_reloads_total`, `…_reload_errors_total`,
    /// `…_runtime_writes_total`, `…_store_outages_total`, `switchboard_revision`, `…_definitions`,
    /// `…_degraded`); `nil` for the process's `MetricsSystem.factory`, as bootstrapped when the board is made.
    public var metricsFactory: (any MetricsFactory)?
    /// Whether typed lookups add OpenTelemetry's `feature_flag.evaluation` event to the current span. Off by
    /// default, and then a lookup costs what it did without tracing.
    public var evaluationEvents: EvaluationEvents
    /// Where the board reads the time: it decides which schedule step is in force, when an override has expired,
    /// and `$flagd.timestamp`, and wakes the board at each such boundary to publish the change. The system clock
    /// by default; SwitchboardTesting's `ManualClock` in tests.
    public var clock: any BoardClock

    /// Creates options; by default the board polls every 250 ms and reloads edited definitions.
    public init(
        pollInterval: Duration? = .milliseconds(250), watchDefinitions: Bool = true,
        fractionalAlgorithm: FractionalAlgorithm = .v3, logger: Logger = Logger(label: "switchboard"),
        metricsFactory: (any MetricsFactory)? = nil, evaluationEvents: EvaluationEvents = .off,
        clock: any BoardClock = SystemClock()
    ) {
        self.clock = clock
        self.pollInterval = pollInterval
        self.watchDefinitions = watchDefinitions
        self.fractionalAlgorithm = fractionalAlgorithm
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.evaluationEvents = evaluationEvents
    }
}
