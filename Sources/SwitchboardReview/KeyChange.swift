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
    /// How the served value moves, when it can move and both sides define the key.
    package var impact: Impact?
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
