/// Why a key has its value: every layer's value and origin, which one won, and why the others did not.
public struct Explanation: Sendable {
    /// One layer's part in the resolution.
    public struct Step: Sendable {
        /// The layer.
        public var layer: Layer
        /// Its value, when it has one.
        public var value: Value?
        /// Where the value came from: a file location, a variable, who set it and when.
        public var origin: String?
        /// What became of it.
        public var status: Status
    }

    /// What became of a layer's value.
    public enum Status: Sendable, Hashable {
        /// The layer has no value for the key.
        case absent
        /// This layer's value is the resolved one.
        case winner
        /// A higher layer's value replaced this one.
        case shadowed
        /// The value does not fit the definition and was skipped.
        case rejected(String)
    }

    /// The key.
    public var key: String
    /// The definition.
    public var definition: Definition
    /// The layers, highest precedence first.
    public var steps: [Step]
    /// The resolution.
    public var resolution: Resolution
    /// The environment variable that would override the key.
    public var environmentVariable: String
    /// What the targeting did for the context: the rule, segment and rollout bucket that chose the default
    /// layer's value, or why none did. `nil` for definitions without targeting.
    public var targeting: String?
    /// The moment the explanation answers for, in seconds since the epoch: now, or the time asked about.
    public var time: Double = 0

    /// The definition's schedule steps, each with whether it has taken effect at ``time``; empty without a
    /// schedule.
    public var timeline: [(step: Schedule.Step, isPast: Bool)] {
        (definition.schedule?.steps ?? []).map { ($0, $0.at <= time) }
    }

    /// The next schedule step after ``time``, if one is to come.
    public var nextStep: Schedule.Step? { definition.schedule?.nextStep(after: time) }
}
