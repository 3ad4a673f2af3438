/// How one key differs between the base and the head of a review.
package struct KeyChange: Sendable, Hashable {
    /// The key: the head's for a rename, the base's for a removal.
    package var key: String
    /// Added, removed, renamed or modified.
    package var change: ChangeKind
    /// The fields that differ, by name (`type`, `default`, `rules`, `rollout`, `override`, …), in a fixed order.
    package var fields: [String]
    /// What changed inside the fields, one line each: "rollout: true 10, false 90 → true 50, false 50".
    package var details: [String]
    /// How the served value moves now, when it can move and both sides define the key.
    package var impact: Impact?
    /// How it moves from each later moment at which a schedule step of either side changes that (a step's time
    /// whose impact differs from the one before it), in time order.
    package var laterImpacts: [TimedImpact] = []
    /// The base's key a rename keeps the overrides of.
    package var renamedFrom: String?

    /// Creates a change.
    package init(
        key: String, change: ChangeKind, fields: [String] = [], details: [String] = [], impact: Impact? = nil,
        renamedFrom: String? = nil
    ) {
        self.key = key
        self.change = change
        self.fields = fields
        self.details = details
        self.impact = impact
        self.renamedFrom = renamedFrom
    }
}

/// The impact from a moment on: a schedule step's time, in seconds since the epoch.
package struct TimedImpact: Sendable, Hashable {
    /// When it starts.
    package var at: Double
    /// The impact from then.
    package var impact: Impact
}
