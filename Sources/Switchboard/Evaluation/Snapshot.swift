import YAML

/// Everything needed to answer lookups at one moment, in two parts: the compiled definitions (the default layer,
/// rebuilt only when the definitions change) and the override table (every key's state in the file, env and
/// runtime layers, rebuilt when overrides change, sharing the compiled definitions and every untouched chunk
/// with the snapshot before it). Immutable, so any number of threads read it without locks.
public final class Snapshot: Sendable {
    /// One key's resolution state. A class, so evaluation reads a field through one reference instead of copying
    /// the whole entry; it is only mutated while its snapshot is being built, before anyone else can see it.
    package final class KeyState: @unchecked Sendable {
        /// The definition.
        package let definition: Definition
        /// The winning override (file, env or runtime), if any.
        package let override: Override?
        /// Every override that applies, lowest layer first (for `explain`).
        package let overrides: [Override]
        /// Overrides that were skipped because their value does not fit the definition, with why.
        package let rejected: [(override: Override, problem: ValueProblem)]
        /// The resolution for an empty context; when ``isDynamic`` is false it holds for every context.
        package internal(set) var contextFree: Resolution
        /// Whether the value depends on the context: the definition has targeting and no override wins.
        package let isDynamic: Bool
        /// The store key of the runtime override, when it is stored under a key the definition was renamed from.
        let storedKey: String?

        /// Combines the layers' typed overrides for a definition.
        init(
            definition: Definition, file: TypedOverride?, env: TypedOverride?, runtime: TypedOverride,
            storedKey: String?
        ) {
            self.definition = definition
            overrides = [file?.accepted, env?.accepted, runtime.accepted].compactMap { $0 }
            rejected = (file?.rejected ?? []) + (env?.rejected ?? []) + runtime.rejected
            override = overrides.last
            self.storedKey = storedKey
            if let winner = overrides.last {
                contextFree = Resolution(value: winner.value, variant: definition.variant(for: winner.value),
                                   reason: .override, layer: winner.layer, metadata: definition.metadata)
            } else if definition.hasDefault {
                contextFree = Resolution(value: definition.defaultValue, variant: definition.defaultVariant, reason: .static,
                                   layer: .default, metadata: definition.metadata)
            } else {
                contextFree = Resolution(value: nil, reason: .default, metadata: definition.metadata)
            }
            isDynamic = overrides.isEmpty && definition.targeting != nil
        }

        /// A copy with another empty-context resolution (a prerequisite's value changed).
        init(_ other: KeyState, contextFree: Resolution) {
            definition = other.definition
            override = other.override
            overrides = other.overrides
            rejected = other.rejected
            isDynamic = other.isDynamic
            storedKey = other.storedKey
            self.contextFree = contextFree
        }
    }

    /// The entries in registry order, read from the override table.
    package struct Entries: RandomAccessCollection, Sendable {
        let table: OverrideTable
        /// The first position.
        package var startIndex: Int { 0 }
        /// One past the last position.
        package var endIndex: Int { table.count }
        /// The entry at a position.
        package subscript(position: Int) -> KeyState { table[position] }
    }

    /// The outcome of evaluating one key: the resolution, and for targeted values which rule, segment or
    /// rollout bucket chose it.
    package struct Evaluation: Sendable {
        /// The resolution.
        package var resolution: Resolution
        /// What the targeting chose, when it chose something.
        package var outcome: DefinitionTargeting.Outcome?
        /// Why the targeting did not apply, when a prerequisite was not met.
        package var unmetPrerequisite: DefinitionTargeting.Prerequisite?
    }

    /// The default layer: definitions and their compiled targeting.
    package let definitions: CompiledDefinitions
    /// The file layer, typed against the definitions.
    package let fileLayer: LayerResult
    /// The env layer, typed against the definitions.
    package let environmentLayer: LayerResult
    /// Runtime overrides whose key has no definition (kept in the store, not applied).
    public let orphans: [String: StoredOverride]
    /// The runtime store's version these overrides were read at.
    public let storeVersion: UInt64
    /// The runtime store's kind (`file`, `postgres`), which `explain` names.
    public let storeKind: String
    /// A number that changes with every publication, for ETags and health.
    public let revision: UInt64
    /// Every key's state, by position.
    let table: OverrideTable
    /// Per chunk of the table, where its hot-path entries are: the lookup reads two plain pointers and touches no
    /// reference count. The table's chunks own the memory, and this snapshot owns the table.
    nonisolated(unsafe) let fastChunks: UnsafeMutablePointer<UnsafeMutablePointer<HotState>>

    /// The part of an entry the hot path reads.
    struct HotState: Sendable {
        let value: Value?
        let isDynamic: Bool
    }

    /// The definitions.
    public let registry: Registry
    /// The engine for every targeted definition.
    var evaluator: FlagdEvaluator { definitions.evaluator }
    /// One entry per definition, in registry order.
    package var entries: Entries { Entries(table: table) }

    /// Warnings found while resolving: skipped override values, override keys with no definition, orphans.
    public var diagnostics: [Diagnostic] {
        var diagnostics = fileLayer.diagnostics + environmentLayer.diagnostics
        for position in 0..<table.count { diagnostics += runtimeRejections(at: position) }
        for key in orphans.keys.sorted() { diagnostics.append(RuntimeLayer.orphanDiagnostic(key: key)) }
        return diagnostics
    }

    /// The warnings for the runtime values skipped at one position.
    func runtimeRejections(at position: Int) -> [Diagnostic] {
        let entry = table[position]
        return entry.rejected.compactMap { override, problem in
            override.layer == .runtime
                ? RuntimeLayer.rejectionDiagnostic(key: entry.definition.key, problem: problem) : nil
        }
    }

    /// Resolves every key through the layers.
    package convenience init(
        definitions: CompiledDefinitions, fileLayer: LayerResult, environmentLayer: LayerResult,
        runtime: StoreContents, storeKind: String = "file", revision: UInt64
    ) {
        let registry = definitions.registry
        var entries: [KeyState] = []
        entries.reserveCapacity(registry.count)
        for definition in registry.definitions {
            let (typed, storedKey) = RuntimeLayer.type(definition, entries: runtime.entries, store: storeKind)
            entries.append(KeyState(definition: definition, file: fileLayer.keys[definition.key],
                                 env: environmentLayer.keys[definition.key], runtime: typed, storedKey: storedKey))
        }
        var orphans: [String: StoredOverride] = [:]
        for (key, entry) in runtime.entries
        where RuntimeLayer.isOrphan(key, entries: runtime.entries, registry: registry) {
            orphans[key] = entry
        }
        // What a targeted value is for an empty context, for listings and change detection.
        let draft = OverrideTable(entries: entries)
        for index in entries.indices where entries[index].isDynamic {
            entries[index].contextFree = Self.evaluate(index, context: .empty, table: draft, definitions: definitions)
                .resolution
        }
        self.init(definitions: definitions, fileLayer: fileLayer, environmentLayer: environmentLayer, orphans: orphans,
                  storeVersion: runtime.version, storeKind: storeKind, revision: revision,
                  table: OverrideTable(entries: entries))
    }

    /// Resolves a registry with override files, an environment and stored overrides (for tools and tests).
    package convenience init(
        registry: Registry, files: FileOverrides = FileOverrides(), environment: [String: String] = [:],
        runtime: [String: StoredOverride] = [:], revision: UInt64 = 0, fractionalAlgorithm: FractionalAlgorithm = .v3
    ) {
        self.init(definitions: CompiledDefinitions(registry: registry, fractionalAlgorithm: fractionalAlgorithm),
                  fileLayer: FileLayer.type(files, against: registry),
                  environmentLayer: EnvironmentLayer.type(environment, against: registry),
                  runtime: StoreContents(entries: runtime, version: 0), revision: revision)
    }

    private init(
        definitions: CompiledDefinitions, fileLayer: LayerResult, environmentLayer: LayerResult,
        orphans: [String: StoredOverride], storeVersion: UInt64, storeKind: String, revision: UInt64,
        table: OverrideTable
    ) {
        self.definitions = definitions
        self.registry = definitions.registry
        self.fastChunks = table.fastPointers()
        self.fileLayer = fileLayer
        self.environmentLayer = environmentLayer
        self.orphans = orphans
        self.storeVersion = storeVersion
        self.storeKind = storeKind
        self.revision = revision
        self.table = table
    }

    /// This snapshot with new runtime overrides, retyping only the definitions that `changedStoreKeys` affect.
    /// The compiled definitions, the file and env layers and every untouched chunk of the table are shared.
    ///
    /// - Parameters:
    ///   - entries: every stored override now.
    ///   - changedStoreKeys: the store keys whose override changed since this snapshot.
    /// - Returns: the new snapshot, and the positions whose entry it replaced.
    func updatingRuntime(
        entries: [String: StoredOverride], changedStoreKeys: some Collection<String>, storeVersion: UInt64,
        revision: UInt64
    ) -> (snapshot: Snapshot, changed: [Int]) {
        let registry = definitions.registry
        var replacements: [Int: KeyState] = [:]
        for key in RuntimeLayer.affectedDefinitions(by: changedStoreKeys, registry: registry) {
            guard let position = registry.position(of: key) else { continue }
            let definition = registry.definitions[position]
            let (typed, storedKey) = RuntimeLayer.type(definition, entries: entries, store: storeKind)
            replacements[position] = KeyState(definition: definition, file: fileLayer.keys[key],
                                           env: environmentLayer.keys[key], runtime: typed, storedKey: storedKey)
        }
        var orphans = self.orphans
        for key in RuntimeLayer.orphanCandidates(for: changedStoreKeys, registry: registry) {
            let orphan = RuntimeLayer.isOrphan(key, entries: entries, registry: registry) ? entries[key] : nil
            if orphans[key] != orphan { orphans[key] = orphan }
        }
        // Targeted definitions whose prerequisites read a changed key resolve anew for the empty context.
        let draft = table.replacing(replacements)
        for position in definitions.withDependents(replacements.keys) where draft[position].isDynamic {
            let contextFree = Self.evaluate(position, context: .empty, table: draft, definitions: definitions).resolution
            if let fresh = replacements[position] {
                fresh.contextFree = contextFree
            } else if contextFree != draft[position].contextFree {
                replacements[position] = KeyState(draft[position], contextFree: contextFree)
            }
        }
        let snapshot = Snapshot(definitions: definitions, fileLayer: fileLayer, environmentLayer: environmentLayer,
                                orphans: orphans, storeVersion: storeVersion, storeKind: storeKind, revision: revision,
                                table: table.replacing(replacements))
        return (snapshot, Array(replacements.keys))
    }

    deinit {
        fastChunks.deallocate()
    }

    /// What the hot path reads at a position.
    @inline(__always)
    func fast(_ position: Int) -> HotState {
        fastChunks[position >> OverrideTable.shift][position & OverrideTable.mask]
    }

    /// The entry of a key.
    package func entry(_ key: String) -> KeyState? {
        registry.position(of: key).map { table[$0] }
    }

    /// Resolves a key for a context.
    public func resolve(_ key: String, context: EvaluationContext = .empty) -> Resolution {
        guard let position = registry.position(of: key) else {
            return .notFound(key)
        }
        guard fast(position).isDynamic else { return table[position].contextFree }
        return evaluate(position, context: context).resolution
    }

    /// Evaluates the definition at a position for a context, with what its targeting chose.
    package func evaluate(_ position: Int, context: EvaluationContext) -> Evaluation {
        Self.evaluate(position, context: context, table: table, definitions: definitions)
    }

    /// The value the definition at a position has for a context: the value of `evaluate(_:context:)`'s
    /// resolution, without building the resolution. The typed lookups' path.
    public func value(at position: Int, context: EvaluationContext) -> Value? {
        let fast = self.fast(position)
        guard fast.isDynamic else { return fast.value }
        return dynamicValue(at: position, context: context)
    }

    func dynamicValue(at position: Int, context: EvaluationContext) -> Value? {
        let entry = table[position]
        guard entry.isDynamic, let plan = definitions.plans[position] else { return entry.contextFree.value }
        if plan.isDisabled { return nil }
        for (other, prerequisite) in plan.prerequisites {
            let actual = dynamicValue(at: other, context: context)
            if !Definition.sameValue(actual ?? .null, prerequisite.value) { return plan.defaultEnabled.value }
        }
        guard let flag = plan.flag else { return nil }
        switch FlagdEvaluator.outcome(of: flag, context: context, staticContext: evaluator.options.staticContext,
                                           clock: evaluator.options.clock) {
        case .variant(let index, _):
            return plan.variantValues[index] ?? plan.defaultEnabled.value
        case .noVariant(let reason):
            return reason == .disabled ? plan.defaultDisabled.value : plan.defaultEnabled.value
        case .failure:
            return nil
        }
    }

    static func evaluate(
        _ position: Int, context: EvaluationContext, table: OverrideTable, definitions: CompiledDefinitions
    ) -> Evaluation {
        let entry = table[position]
        let evaluator = definitions.evaluator
        guard entry.isDynamic, let plan = definitions.plans[position] else {
            return Evaluation(resolution: entry.contextFree)
        }
        if plan.isDisabled {
            return Evaluation(resolution: plan.defaultResolution(.disabled, metadata: plan.metadata))
        }
        for (other, prerequisite) in plan.prerequisites {
            let actual = evaluate(other, context: context, table: table, definitions: definitions)
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
