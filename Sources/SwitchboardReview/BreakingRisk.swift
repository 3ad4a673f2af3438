/// A risk of a change that breaks something already in use: a stored override that no longer fits, a removal
/// that looks like a rename without `renamed_from`, a prerequisite on a removed flag.
package struct BreakingRisk: Sendable, Hashable {
    /// The key at risk.
    package var key: String
    /// Why, in one sentence: "stored override 700 no longer fits: above the maximum 500".
    package var reason: String

    /// Creates a risk.
    package init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }
}
