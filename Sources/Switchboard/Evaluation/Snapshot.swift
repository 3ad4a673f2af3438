import YAML

/// Everything needed to answer lookups at one moment: the registry and each key's value in every layer, resolved
/// once when the snapshot is built. Immutable, so any number of threads read it without locks.
public final class Snapshot: Sendable {
    /// One key's resolution state. A class, so evaluation reads a field through one reference instead of copying
    /// the whole entry; it is only mutated while its snapshot is being built, before anyone else can see it.
    public final class Entry: @unchecked Sendable {
        /// The definition.
        public let definition: Definition
        /// The winning override (file, env or runtime), if any.
        public let override: Override?
        /// Every override that applies, lowest layer first (for `explain`).
        public let overrides: [Override]
        /// Overrides that were skipped because their value does not fit the definition, with why.
        public let rejected: [(override: Override, problem: ValueProblem)]
        /// The resolution for an empty context; when ``isDynamic`` is false it holds for every context.
        public internal(set) var fixed: Resolution
        /// Whether the value depends on the context: the definition has targeting and no override wins.
        public let isDynamic: Bool
        /// What evaluating the targeting reads, gathered once so the hot path copies no ``Definition``.
        let plan: Plan?

        /// The parts of a targeted definition that evaluation needs.
        final class Plan: Sendable {
            let key: String
            let outcomes: [String: DefinitionTargeting.Outcome]
            /// The compiled flag in the snapshot's engine, so evaluating skips the lookup by key.
            let flag: FlagdEvaluator.Entry?
            /// What each of the flag's variants serves, by its position in the engine's variant table; `nil` for a
            /// variant with no outcome (the default then applies).
            let variantValues: [Value?]
            let prerequisites: [(position: Int, requirement: DefinitionTargeting.Prerequisite)]
            let defaultDisabled: Resolution
            let defaultOther: Resolution
            let metadata: [String: Value]
            let servesNothingWhenDisabled: Bool

            init(definition: Definition, targeting: DefinitionTargeting, registry: Registry, evaluator: FlagdEvaluator) {
                key = definition.key
                outcomes = targeting.outcomes
                flag = evaluator.entry(forKey: definition.key)
                variantValues = (flag?.variants.names ?? []).map { targeting.outcomes[$0]?.value }
                prerequisites = targeting.prerequisites.compactMap { requirement in
                    registry.position(of: requirement.key).map { ($0, requirement) }
                }
                metadata = definition.metadata
                // flagd flags that are off serve nothing (callers use their own default), as flagd does.
                servesNothingWhenDisabled = !definition.hasDefault || targeting.isFlagd
                let value = definition.hasDefault ? definition.defaultValue : nil
                defaultDisabled = Resolution(value: servesNothingWhenDisabled ? nil : value,
                                             variant: servesNothingWhenDisabled ? nil : definition.defaultVariant,
                                             reason: .disabled, layer: servesNothingWhenDisabled ? nil : .default)
                defaultOther = Resolution(value: value, variant: definition.hasDefault ? definition.defaultVariant : nil,
                                          reason: .default, layer: definition.hasDefault ? .default : nil)
            }

            func defaultResolution(_ reason: Reason, metadata: [String: Value]) -> Resolution {
                var resolution = reason == .disabled ? defaultDisabled : defaultOther
                resolution.reason = reason
                if resolution.value == nil { resolution.layer = nil }
                resolution.metadata = metadata
                return resolution
            }
        }

        init(
            definition: Definition, override: Override?, overrides: [Override],
            rejected: [(override: Override, problem: ValueProblem)], fixed: Resolution, isDynamic: Bool, plan: Plan?
        ) {
            self.definition = definition
            self.override = override
            self.overrides = overrides
            self.rejected = rejected
            self.fixed = fixed
            self.isDynamic = isDynamic
            self.plan = plan
        }
    }

    /// The outcome of evaluating one key: the resolution, and for targeted values which rule, segment or
    /// rollout bucket chose it.
    public struct Evaluation: Sendable {
        /// The resolution.
        public var resolution: Resolution
        /// What the targeting chose, when it chose something.
        public var outcome: DefinitionTargeting.Outcome?
        /// Why the targeting did not apply, when a prerequisite was not met.
        public var unmetPrerequisite: DefinitionTargeting.Prerequisite?
    }

    /// The definitions.
    public let registry: Registry
    /// One entry per definition, in registry order.
    public let entries: [Entry]
    /// Warnings found while resolving: skipped override values, override keys with no definition.
    public let diagnostics: [Diagnostic]
    /// Runtime overrides whose key has no definition (kept in the store, not applied).
    public let orphans: [String: RuntimeStore.Entry]
    /// A number that changes with every rebuild, for ETags and health.
    public let revision: UInt64
    /// The engine for every targeted definition.
    let evaluator: FlagdEvaluator
    /// Per position, just what a context-free typed lookup reads: a small array, so the hot path copies a few
    /// bytes instead of a whole ``Entry``.
    @usableFromInline let fast: [FastEntry]

    /// The part of an entry the hot path reads.
    @usableFromInline
    struct FastEntry: Sendable {
        @usableFromInline let value: Value?
        @usableFromInline let isDynamic: Bool
    }

    /// Resolves every key through the layers.
    init(
        registry: Registry, files: FileOverrides, environment: [String: String],
        runtime: [String: RuntimeStore.Entry], revision: UInt64, fractionalAlgorithm: FractionalAlgorithm = .v3
    ) {
        self.registry = registry
        var flags: [String: FlagdFlag] = [:]
        for definition in registry.definitions {
            if let targeting = definition.targeting { flags[definition.key] = targeting.flag }
        }
        let evaluator = FlagdEvaluator(FlagdFlagSet(flags: flags),
                                       options: .init(fractionalAlgorithm: fractionalAlgorithm))
        self.evaluator = evaluator
        self.revision = revision
        var diagnostics: [Diagnostic] = []
        var entries: [Entry] = []
        entries.reserveCapacity(registry.count)
        var claimedRuntimeKeys = Set<String>()
        for definition in registry.definitions {
            var overrides: [Override] = []
            var rejected: [(Override, ValueProblem)] = []
            // The last file that sets the key wins; a value that does not fit is skipped and the file before it
            // is tried, so one bad value never hides a good one further down.
            let candidates = (files.earlierEntries[definition.key] ?? []) + [files.entries[definition.key]].compactMap { $0 }
            for entry in candidates.reversed() {
                let override: Override
                let problem: ValueProblem?
                switch Value.from(entry.node, as: definition.type) {
                case .success(let value):
                    override = Override(key: definition.key, value: value, layer: .file, origin: .file(entry.location))
                    problem = definition.problem(with: value)
                case .failure(let typeProblem):
                    override = Override(key: definition.key, value: Value(node: entry.node), layer: .file,
                                        origin: .file(entry.location))
                    problem = typeProblem
                }
                guard let problem else {
                    overrides.append(override)
                    break
                }
                rejected.append((override, problem))
                diagnostics.append(.warning(at: entry.node.location,
                                            "override of \(definition.key) skipped: \(problem.message)",
                                            hint: problem.hint))
            }
            let variable = KeySyntax.environmentVariable(for: definition.key)
            if let text = environment[variable] {
                let origin = Origin.environment(variable: variable, text: text)
                switch Value.parse(text, as: definition.type) {
                case .success(let value):
                    let override = Override(key: definition.key, value: value, layer: .env, origin: origin)
                    if let problem = definition.problem(with: value) {
                        rejected.append((override, problem))
                        diagnostics.append(.warning(at: nil, "\(variable) skipped: \(problem.message)", hint: problem.hint))
                    } else {
                        overrides.append(override)
                    }
                case .failure(let problem):
                    rejected.append((Override(key: definition.key, value: .string(text), layer: .env, origin: origin),
                                     problem))
                    diagnostics.append(.warning(at: nil, "\(variable) skipped: \(problem.message)", hint: problem.hint))
                }
            }
            // The key's own override first; failing that, one stored under a key it was renamed from.
            let stored = runtime[definition.key].map { (definition.key, $0) }
                ?? definition.renamedFrom.lazy.compactMap { old in runtime[old].map { (old, $0) } }.first
            if let (storedKey, entry) = stored {
                claimedRuntimeKeys.insert(storedKey)
                let origin = Origin.runtime(actor: entry.actor, time: entry.time,
                                            storedAs: storedKey == definition.key ? nil : storedKey)
                let override = Override(key: definition.key, value: entry.value, layer: .runtime, origin: origin)
                let value = definition.type == .double ? entry.value.doubleValue.map(Value.double) ?? entry.value
                    : entry.value
                if let problem = definition.problem(with: value) {
                    rejected.append((override, problem))
                    diagnostics.append(.warning(at: nil, "runtime override of \(definition.key) skipped: \(problem.message)",
                                                hint: problem.hint))
                } else {
                    overrides.append(Override(key: definition.key, value: value, layer: .runtime, origin: origin))
                }
            }
            let winner = overrides.last
            let fixed: Resolution = if let winner {
                Resolution(value: winner.value, variant: definition.variant(for: winner.value), reason: .override,
                           layer: winner.layer, metadata: definition.metadata)
            } else if definition.hasDefault {
                Resolution(value: definition.defaultValue, variant: definition.defaultVariant, reason: .static,
                           layer: .default, metadata: definition.metadata)
            } else {
                Resolution(value: nil, reason: .default, metadata: definition.metadata)
            }
            entries.append(Entry(definition: definition, override: winner, overrides: overrides, rejected: rejected,
                                 fixed: fixed, isDynamic: winner == nil && definition.targeting != nil,
                                 plan: definition.targeting.map { Entry.Plan(definition: definition, targeting: $0,
                                                                             registry: registry, evaluator: evaluator) }))
        }
        for key in files.entries.keys.sorted() where registry[key] == nil {
            let entry = files.entries[key]!
            let hint = Suggestions.nearest(to: key, in: registry.keys).map { "did you mean '\($0)'?" }
                ?? "remove the override, or define the key"
            diagnostics.append(.warning(at: entry.location, "override of \(key), which has no definition", hint: hint))
        }
        var orphans: [String: RuntimeStore.Entry] = [:]
        for (key, entry) in runtime where !claimedRuntimeKeys.contains(key) && registry[key] == nil {
            orphans[key] = entry
        }
        for key in orphans.keys.sorted() {
            diagnostics.append(.warning(at: nil, "runtime override of \(key) is orphaned: no definition has this key",
                                        hint: "it is kept in the store; `switchboard reset \(key)` removes it"))
        }
        // What a targeted value is for an empty context, for listings and change detection.
        let staticEntries = entries
        for index in entries.indices where entries[index].isDynamic {
            entries[index].fixed = Self.evaluate(index, context: .empty, entries: staticEntries, registry: registry,
                                                 evaluator: evaluator).resolution
        }
        self.entries = entries
        self.fast = entries.map { FastEntry(value: $0.fixed.value, isDynamic: $0.isDynamic) }
        self.diagnostics = diagnostics
        self.orphans = orphans
    }

    /// The entry of a key.
    @inlinable
    public func entry(_ key: String) -> Entry? {
        registry.position(of: key).map { entries[$0] }
    }

    /// Resolves a key for a context.
    public func resolve(_ key: String, context: EvaluationContext = .empty) -> Resolution {
        guard let position = registry.position(of: key) else {
            return .failure(.flagNotFound, "no definition has the key \(key)")
        }
        guard fast[position].isDynamic else { return entries[position].fixed }
        return evaluate(position, context: context).resolution
    }

    /// Evaluates the definition at a position for a context, with what its targeting chose.
    public func evaluate(_ position: Int, context: EvaluationContext) -> Evaluation {
        Self.evaluate(position, context: context, entries: entries, registry: registry, evaluator: evaluator)
    }

    /// The value the definition at a position has for a context: the value of ``evaluate(_:context:)``'s
    /// resolution, without building the resolution. The typed lookups' path.
    @inlinable
    public func value(at position: Int, context: EvaluationContext) -> Value? {
        let fast = self.fast[position]
        guard fast.isDynamic else { return fast.value }
        return dynamicValue(at: position, context: context)
    }

    @usableFromInline
    func dynamicValue(at position: Int, context: EvaluationContext) -> Value? {
        let entry = entries[position]
        guard entry.isDynamic, let plan = entry.plan else { return entry.fixed.value }
        for (other, prerequisite) in plan.prerequisites {
            let actual = dynamicValue(at: other, context: context)
            if !Definition.sameValue(actual ?? .null, prerequisite.value) { return plan.defaultOther.value }
        }
        guard let flag = plan.flag else { return nil }
        switch FlagdEvaluator.outcome(of: flag, context: context, staticContext: evaluator.options.staticContext) {
        case .variant(let index, _):
            return plan.variantValues[index] ?? plan.defaultOther.value
        case .noVariant(let reason):
            return reason == .disabled ? plan.defaultDisabled.value : plan.defaultOther.value
        case .failure:
            return nil
        }
    }

    static func evaluate(
        _ position: Int, context: EvaluationContext, entries: [Entry], registry: Registry, evaluator: FlagdEvaluator
    ) -> Evaluation {
        let entry = entries[position]
        guard entry.isDynamic, let plan = entry.plan else {
            return Evaluation(resolution: entry.fixed)
        }
        for (other, prerequisite) in plan.prerequisites {
            let actual = evaluate(other, context: context, entries: entries, registry: registry, evaluator: evaluator)
            if !Definition.sameValue(actual.resolution.value ?? .null, prerequisite.value) {
                return Evaluation(resolution: plan.defaultResolution(.default, metadata: plan.metadata),
                                  unmetPrerequisite: prerequisite)
            }
        }
        let result = plan.flag.map { evaluator.resolution(of: $0, context: context) }
            ?? evaluator.evaluate(plan.key, context: context)
        if result.errorCode != nil {
            return Evaluation(resolution: result)
        }
        if let name = result.variant, let outcome = plan.outcomes[name] {
            let resolution = Resolution(value: outcome.value, variant: outcome.variant, reason: result.reason,
                                        layer: .default, metadata: result.metadata)
            return Evaluation(resolution: resolution, outcome: name == "#default" ? nil : outcome)
        }
        return Evaluation(resolution: plan.defaultResolution(result.reason, metadata: result.metadata))
    }
}
