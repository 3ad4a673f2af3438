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
}

extension Board {
    /// Explains a key's resolution, or returns `nil` when no definition has the key.
    public func explain(_ key: String, context: EvaluationContext = .empty) -> Explanation? {
        let snapshot = self.snapshot
        guard let entry = snapshot.entry(key) else { return nil }
        let position = snapshot.registry.position(of: key)!
        let evaluation = snapshot.evaluate(position, context: context)
        let resolution = evaluation.resolution
        // The default layer's own value for this context, even when an override wins.
        var targetingNote: String?
        var defaultValue = entry.definition.defaultValue
        var defaultVariant = entry.definition.defaultVariant
        if let targeting = entry.definition.targeting {
            let flagResult = snapshot.evaluator.evaluate(key, context: context)
            if let prerequisite = evaluation.unmetPrerequisite {
                targetingNote = "prerequisite \(prerequisite.key) = \(prerequisite.value.plainText) not met; default served"
            } else if let code = flagResult.errorCode {
                targetingNote = "targeting failed: \(code.rawValue): \(flagResult.errorMessage ?? "")"
            } else if let name = flagResult.variant, let outcome = targeting.outcomes[name] {
                defaultValue = outcome.value
                defaultVariant = outcome.variant
                targetingNote = name == "#default"
                    ? "no rule matched (\(flagResult.reason.rawValue)); default served"
                    : outcome.summary + " → \(outcome.value.plainText)"
            } else {
                targetingNote = "\(flagResult.reason.rawValue): default served"
            }
            if !targeting.prerequisites.isEmpty, evaluation.unmetPrerequisite == nil {
                let met = targeting.prerequisites.map { "\($0.key) = \($0.value.plainText)" }.joined(separator: ", ")
                targetingNote = (targetingNote ?? "") + " (prerequisites met: \(met))"
            }
        }
        var steps: [Explanation.Step] = []
        for layer in Layer.allCases.reversed() {
            if layer == .default {
                let definition = entry.definition
                steps.append(Explanation.Step(
                    layer: .default, value: defaultValue,
                    origin: "\(definition.defaultLocation)" + (defaultVariant.map { " (variant \($0))" } ?? ""),
                    status: resolution.layer == .default ? .winner : .shadowed))
                continue
            }
            if let override = entry.overrides.first(where: { $0.layer == layer }) {
                steps.append(Explanation.Step(layer: layer, value: override.value, origin: override.origin.description,
                                              status: resolution.layer == layer ? .winner : .shadowed))
            } else if let (override, problem) = entry.rejected.first(where: { $0.override.layer == layer }) {
                steps.append(Explanation.Step(layer: layer, value: override.value, origin: override.origin.description,
                                              status: .rejected(problem.description)))
            } else {
                steps.append(Explanation.Step(layer: layer, value: nil, origin: nil, status: .absent))
            }
        }
        return Explanation(key: key, definition: entry.definition, steps: steps, resolution: resolution,
                           environmentVariable: KeySyntax.environmentVariable(for: key), targeting: targetingNote)
    }
}
