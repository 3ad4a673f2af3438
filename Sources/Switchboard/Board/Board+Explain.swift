public import Foundation

extension Board {
    /// Explains a key's resolution, or returns `nil` when no definition has the key.
    public func explain(_ key: String, context: EvaluationContext = .empty) -> Explanation? {
        explain(key, context: context, in: snapshot, at: clock.now())
    }

    /// Explains a key's resolution as of another time: the schedule steps in force and the runtime overrides not
    /// yet expired then, the definitions, files and store as they are now.
    public func explain(_ key: String, context: EvaluationContext = .empty, at time: Date) -> Explanation? {
        let seconds = time.timeIntervalSince1970
        return explain(key, context: context, in: engine.snapshot(at: seconds), at: seconds)
    }

    private func explain(
        _ key: String, context: EvaluationContext, in snapshot: Snapshot, at time: Double
    ) -> Explanation? {
        guard let entry = snapshot.entry(key) else { return nil }
        let position = snapshot.registry.position(of: key)!
        let evaluation = snapshot.evaluate(position, context: context)
        let resolution = evaluation.resolution
        // The default layer's own value for this context, even when an override wins.
        var targetingNote: String?
        var defaultValue = entry.definition.defaultValue
        var defaultVariant = entry.definition.defaultVariant
        var defaultOrigin = "\(entry.definition.defaultLocation)"
        var servesNothing = false
        if let targeting = entry.definition.targeting {
            let flagResult = snapshot.evaluator.evaluate(key, context: context)
            if let prerequisite = evaluation.unmetPrerequisite {
                targetingNote = "prerequisite \(prerequisite.key) = \(prerequisite.value.plainText) not met; default served"
            } else if let code = flagResult.errorCode {
                targetingNote = "targeting failed: \(code.rawValue): \(flagResult.errorMessage ?? "")"
            } else if let name = flagResult.variant, let outcome = targeting.outcomes[name] {
                defaultValue = outcome.value
                defaultVariant = outcome.variant
                if name == "#default" {
                    targetingNote = targeting.rolloutWithoutTargetingKey(
                        context: context, staticContext: snapshot.evaluator.options.staticContext)
                        ?? "no rule matched (\(flagResult.reason.rawValue)); default served"
                } else {
                    targetingNote = outcome.summary + " → \(outcome.value.plainText)"
                    // The value is the rule's (or the rollout's), so the row points there, not at `default:`.
                    defaultOrigin = (outcome.location.map { "\($0) " } ?? "") + "targeting (\(outcome.source))"
                }
            } else if flagResult.reason == .disabled {
                servesNothing = true
                targetingNote = Message.disabled.text
            } else {
                targetingNote = "\(flagResult.reason.rawValue): default served"
            }
            if !targeting.prerequisites.isEmpty, evaluation.unmetPrerequisite == nil, !servesNothing {
                let met = targeting.prerequisites.map { "\($0.key) = \($0.value.plainText)" }.joined(separator: ", ")
                targetingNote = (targetingNote ?? "") + " (prerequisites met: \(met))"
            }
        }
        var steps: [Explanation.Step] = []
        for layer in Layer.allCases.reversed() {
            if layer == .default {
                steps.append(Explanation.Step(
                    layer: .default, value: servesNothing ? nil : defaultValue,
                    origin: defaultOrigin + (defaultVariant.map { " (variant \($0))" } ?? ""),
                    status: resolution.layer == .default ? .winner : servesNothing ? .absent : .shadowed))
                continue
            }
            if let override = entry.overrides.first(where: { $0.layer == layer }) {
                steps.append(Explanation.Step(layer: layer, value: override.value, origin: override.origin.description,
                                              status: resolution.layer == layer ? .winner : .shadowed))
            } else if let (override, problem) = entry.rejected.first(where: { $0.override.layer == layer }) {
                steps.append(Explanation.Step(layer: layer, value: override.value, origin: override.origin.description,
                                              status: .rejected(problem.description)))
            } else if layer == .runtime, let problem = health.storeProblem {
                // Not "no runtime override": the store could not be read, so whether it holds one is unknown.
                steps.append(Explanation.Step(layer: layer, value: nil, origin: "unknown: \(problem.message)",
                                              status: .absent))
            } else {
                steps.append(Explanation.Step(layer: layer, value: nil, origin: nil, status: .absent))
            }
        }
        return Explanation(key: key, definition: entry.definition, steps: steps, resolution: resolution,
                           environmentVariable: KeySyntax.environmentVariable(for: key), targeting: targetingNote,
                           time: time)
    }
}
