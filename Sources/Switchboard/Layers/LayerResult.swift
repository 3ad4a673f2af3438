/// What a layer made of one key's raw entries: the override it supplies, if any, and the values it skipped
/// because they do not fit the definition.
package struct TypedOverride: Sendable {
    /// The layer's value for the key, typed by its definition.
    package var accepted: Override?
    /// Values skipped because they do not fit, with why; the layer's next candidate was tried instead.
    package var rejected: [(override: Override, problem: ValueProblem)]

    /// Creates a typed override.
    package init(accepted: Override? = nil, rejected: [(override: Override, problem: ValueProblem)] = []) {
        self.accepted = accepted
        self.rejected = rejected
    }

    /// Whether the layer has anything for the key.
    package var isEmpty: Bool { accepted == nil && rejected.isEmpty }
}

/// What a layer made of all its raw entries, typed against a registry: per key, the override it supplies and
/// the values it skipped, and the warnings to report.
package struct LayerResult: Sendable {
    /// The layer.
    package var layer: Layer
    /// Per definition key.
    package var keys: [String: TypedOverride]
    /// Skipped values and entries with no definition, as warnings at their place.
    package var diagnostics: [Diagnostic]

    /// Creates a result.
    package init(layer: Layer, keys: [String: TypedOverride] = [:], diagnostics: [Diagnostic] = []) {
        self.layer = layer
        self.keys = keys
        self.diagnostics = diagnostics
    }
}
