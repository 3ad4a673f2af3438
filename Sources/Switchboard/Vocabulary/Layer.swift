/// The layers a value resolves through, lowest first. The highest layer with a value wins.
public enum Layer: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The definition's default, or what its targeting chose.
    case `default`
    /// An override file (`flags/environments/NAME.yaml`, then `flags/local.overrides.yaml`).
    case file
    /// A `SWITCHBOARD_...` environment variable.
    case env
    /// The persisted runtime override store.
    case runtime

    /// Lowest to highest precedence.
    public static func < (lhs: Layer, rhs: Layer) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
