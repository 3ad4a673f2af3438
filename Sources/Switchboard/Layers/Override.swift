public import YAML

/// A value some layer above the default supplies for a key, and where it came from.
public struct Override: Sendable, Hashable {
    /// The key it overrides.
    public var key: String
    /// The value.
    public var value: Value
    /// The layer it belongs to.
    public var layer: Layer
    /// Where it came from.
    public var origin: Origin

    /// Creates an override.
    public init(key: String, value: Value, layer: Layer, origin: Origin) {
        self.key = key
        self.value = value
        self.layer = layer
        self.origin = origin
    }
}

/// Where a value came from, for `explain`.
public enum Origin: Sendable, Hashable, CustomStringConvertible {
    /// A definitions or override file, at a place in it.
    case file(SourceLocation)
    /// An environment variable, with its text.
    case environment(variable: String, text: String)
    /// The runtime store: who set it and when (ISO 8601, UTC), which store (`file`, `postgres`) at which version;
    /// `storedAs` names the old key of a renamed one.
    case runtime(actor: String, time: String, storedAs: String?, store: String, version: UInt64)

    /// `flags/a.yaml:3:5`, `SWITCHBOARD_A=1`, `set by alice at 2026-11-22T07:00:00Z`.
    public var description: String {
        switch self {
        case .file(let location): "\(location)"
        case .environment(let variable, let text): "\(variable)=\(text)"
        case .runtime(let actor, let time, let storedAs, let store, let version):
            "set by \(actor) at \(time) (\(store)" + (version > 0 ? ", version \(version)" : "") + ")"
                + (storedAs.map { " (stored as \($0), renamed)" } ?? "")
        }
    }
}
