/// The default layer: the registry with every definition's targeting compiled into one flagd engine, and what
/// evaluating each definition reads. Built once per set of definitions and shared, unchanged, by every snapshot
/// until the definitions change: an override write never rebuilds it.
package final class CompiledDefinitions: Sendable {
    /// The definitions.
    package let registry: Registry
    /// The bucketing algorithm for definitions that do not choose one.
    package let fractionalAlgorithm: FractionalAlgorithm
    /// The engine for every targeted definition.
    let evaluator: FlagdEvaluator
    /// Per position, what evaluating the definition's targeting reads; `nil` for definitions without targeting.
    let plans: [Plan?]
    /// Per position, the positions of the definitions whose targeting requires this one's value.
    let dependents: [Int: [Int]]

    /// The parts of a targeted definition that evaluation needs, gathered once so the hot path copies no
    /// ``Definition``.
    final class Plan: Sendable {
        let key: String
        let outcomes: [String: DefinitionTargeting.Outcome]
        /// The compiled flag in the engine, so evaluating skips the lookup by key.
        let flag: FlagdEvaluator.CompiledFlag?
        /// What each of the flag's variants serves, by its position in the engine's variant table; `nil` for a
        /// variant with no outcome (the default then applies).
        let variantValues: [Value?]
        let prerequisites: [(position: Int, requirement: DefinitionTargeting.Prerequisite)]
        let defaultDisabled: Resolution
        let defaultEnabled: Resolution
        /// Switched off (`enabled: false`, a flagd `DISABLED` state): nothing else is evaluated, prerequisites
        /// included, and callers get their own default.
        let isDisabled: Bool
        let metadata: [String: Value]

        init(definition: Definition, targeting: DefinitionTargeting, registry: Registry, evaluator: FlagdEvaluator) {
            key = definition.key
            outcomes = targeting.outcomes
            flag = evaluator.entry(forKey: definition.key)
            variantValues = (flag?.variants.names ?? []).map { targeting.outcomes[$0]?.value }
            prerequisites = targeting.prerequisites.compactMap { requirement in
                registry.position(of: requirement.key).map { ($0, requirement) }
            }
            metadata = definition.metadata
            isDisabled = targeting.flag.state == .disabled
            // A flag that is off serves nothing: callers use their own default, with the reason DISABLED, as
            // OpenFeature and flagd do. The same in every face: typed lookups, OFREP, the CLI, the REPL, the console.
            let value = definition.hasDefault ? definition.defaultValue : nil
            defaultDisabled = Resolution(value: nil, reason: .disabled)
            defaultEnabled = Resolution(value: value, variant: definition.hasDefault ? definition.defaultVariant : nil,
                                      reason: .default, layer: definition.hasDefault ? .default : nil)
        }

        func defaultResolution(_ reason: Reason, metadata: [String: Value]) -> Resolution {
            var resolution = reason == .disabled ? defaultDisabled : defaultEnabled
            resolution.reason = reason
            if resolution.value == nil { resolution.layer = nil }
            resolution.metadata = metadata
            return resolution
        }
    }

    /// Compiles a registry's targeting.
    package init(registry: Registry, fractionalAlgorithm: FractionalAlgorithm = .v3, clock: (any BoardClock)? = nil) {
        self.registry = registry
        self.fractionalAlgorithm = fractionalAlgorithm
        var flags: [String: FlagdFlag] = [:]
        for definition in registry.definitions {
            if let targeting = definition.targeting { flags[definition.key] = targeting.flag }
        }
        let evaluator = FlagdEvaluator(FlagdFlagSet(flags: flags),
                                       options: .init(fractionalAlgorithm: fractionalAlgorithm, clock: clock))
        self.evaluator = evaluator
        var plans: [Plan?] = []
        plans.reserveCapacity(registry.count)
        var dependents: [Int: [Int]] = [:]
        for position in registry.definitions.indices {
            let definition = registry.definitions[position]
            guard let targeting = definition.targeting else {
                plans.append(nil)
                continue
            }
            let plan = Plan(definition: definition, targeting: targeting, registry: registry, evaluator: evaluator)
            for (required, _) in plan.prerequisites { dependents[required, default: []].append(position) }
            plans.append(plan)
        }
        self.plans = plans
        self.dependents = dependents
    }

    /// The positions whose value for a context can change when the values at `positions` change: those positions
    /// and, transitively, every definition whose prerequisites read them.
    func withDependents(_ positions: some Sequence<Int>) -> Set<Int> {
        var result = Set<Int>()
        var pending = Array(positions)
        while let position = pending.popLast() {
            guard result.insert(position).inserted else { continue }
            pending.append(contentsOf: dependents[position] ?? [])
        }
        return result
    }

    /// Everything about the definition at a position that decides what it serves, as one value: two definitions
    /// with equal signatures resolve alike for every context. A reload compares signatures to report keys whose
    /// targeting changed even when their value for the empty context did not.
    func signature(at position: Int) -> Value {
        let definition = registry.definitions[position]
        var fields: [String: Value] = [
            "type": .string(definition.type.rawValue),
            "default": definition.hasDefault ? definition.defaultValue : .null,
            "variants": .list(definition.variants.map { .list([.string($0.name), $0.value]) }),
            "metadata": .object(definition.metadata),
        ]
        fields["default_variant"] = definition.defaultVariant.map(Value.string)
        guard let targeting = definition.targeting else { return .object(fields) }
        let flag = targeting.flag
        fields["state"] = .string(flag.state.rawValue)
        fields["flag_variants"] = .object(flag.variants)
        fields["flag_default"] = flag.defaultVariant.map(Value.string) ?? .null
        fields["rule"] = flag.targeting?.source ?? .null
        fields["bucketing"] = flag.fractionalAlgorithm.map { .string("\($0)") } ?? .null
        fields["outcomes"] = .object(targeting.outcomes.mapValues {
            .list([$0.value, $0.variant.map(Value.string) ?? .null])
        })
        fields["requires"] = .list(targeting.prerequisites.map { .list([.string($0.key), $0.value]) })
        return .object(fields)
    }
}
