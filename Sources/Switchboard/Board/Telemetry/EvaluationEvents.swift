/// Whether a ``Board``'s typed lookups add OpenTelemetry's `feature_flag.evaluation` event to
/// the current span, and whether the event carries the value.
///
/// ```swift
/// let board = try Board(directory: "flags", options: BoardOptions(evaluationEvents: .on))
/// try await withSpan("checkout") { _ in
///     board.bool("checkout.new_flow", default: false)   // the span gets a feature_flag.evaluation event
/// }
/// ```
///
/// Off (the default), a lookup tests one constant and takes the fast path. On, it resolves fully (reason and
/// variant) and asks the tracer in effect for the current span; with no span current it adds nothing.
public struct EvaluationEvents: Sendable, Hashable {
    /// Whether lookups add the event.
    public var isOn: Bool
    /// Whether the event carries `feature_flag.result.value`: values can be large or private, so only on request.
    public var includesValues: Bool

    /// Creates a setting.
    public init(isOn: Bool, includesValues: Bool = false) {
        self.isOn = isOn
        self.includesValues = includesValues
    }

    /// No events: the default.
    public static let off = EvaluationEvents(isOn: false)
    /// Events without values.
    public static let on = EvaluationEvents(isOn: true)
    /// Events with `feature_flag.result.value`.
    public static let onWithValues = EvaluationEvents(isOn: true, includesValues: true)
}
