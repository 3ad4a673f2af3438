package import YAML

/// A value some layer above the default supplies for a key, and where it came from.
package struct Override: Sendable, Hashable {
    /// The key it overrides.
    package var key: String
    /// The value.
    package var value: Value
    /// The layer it belongs to.
    package var layer: Layer
    /// Where it came from.
    package var origin: Origin

    /// Creates an override.
    package init(key: String, value: Value, layer: Layer, origin: Origin) {
        self.key = key
        self.value = value
        self.layer = layer
        self.origin = origin
    }
}

/// Where a value came from, for `explain`.
package enum Origin: Sendable, Hashable, CustomStringConvertible {
    /// A definitions or override file, at a place in it.
    case file(SourceLocation)
    /// An environment variable, with its text.
    case environment(variable: String, text: String)
    /// The runtime store: who set it and when (ISO 8601, UTC), which store (`file`, `postgres`) at which version;
    /// `storedAs` names the old key of a renamed one.
    case runtime(actor: String, time: String, storedAs: String?, store: String, version: UInt64)

    /// `flags/a.yaml:3:5`, `SWITCHBOARD_A=1`, `set by alice at 2026-11-22T07:00:00Z (file store, version 3)`: the
    /// store named as such, so that it is not read as the file layer.
    package var description: String {
        switch self {
        case .file(let location): "\(location)"
        case .environment(let variable, let text): "\(variable)=\(text)"
        case .runtime(let actor, let time, let storedAs, let store, let version):
            "set by \(PersonName.shown(actor)) at \(time) (\(store) store"
                + (version > 0 ? ", version \(version)" : "") + ")"
                + (storedAs.map { " (stored as \($0), renamed)" } ?? "")
        }
    }
}
