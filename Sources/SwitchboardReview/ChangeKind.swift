/// How a key differs between the two sides of a review.
package enum ChangeKind: String, Sendable, Hashable, CaseIterable {
    /// Only the head defines it.
    case added
    /// Only the base defines it.
    case removed
    /// The head defines it with `renamed_from` naming a key the base defines.
    case renamed
    /// Both define it, and a field or its override differs.
    case modified
}
