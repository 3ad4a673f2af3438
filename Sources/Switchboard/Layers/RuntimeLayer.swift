/// The runtime layer, typed: the store's overrides checked against their definitions, one key at a time, so a
/// write retypes only the keys it changed.
///
/// A definition takes its own key's override; failing that, one stored under a key it was renamed from
/// (`renamed_from`). A stored override that no definition takes is an orphan: kept in the store, not applied.
/// A stored value that no longer fits its definition (the definition changed) is skipped with a warning.
package enum RuntimeLayer {
    /// Types one definition's stored override. Returns the typed override and the store key it came from.
    package static func type(
        _ definition: Definition, entries: [String: StoredOverride], store: String = "file"
    ) -> (typed: TypedOverride, storedKey: String?) {
        let stored = entries[definition.key].map { (definition.key, $0) }
            ?? definition.renamedFrom.lazy.compactMap { old in entries[old].map { (old, $0) } }.first
        guard let (storedKey, entry) = stored else { return (TypedOverride(), nil) }
        let origin = Origin.runtime(actor: entry.actor, time: entry.time,
                                    storedAs: storedKey == definition.key ? nil : storedKey, store: store,
                                    version: entry.version)
        switch definition.fit(entry.value) {
        case .failure(let problem):
            let override = Override(key: definition.key, value: entry.value, layer: .runtime, origin: origin)
            return (TypedOverride(rejected: [(override, problem)]), storedKey)
        case .success(let value):
            let override = Override(key: definition.key, value: value, layer: .runtime, origin: origin)
            return (TypedOverride(accepted: override), storedKey)
        }
    }

    /// Whether a stored key is an orphan: it has an override, no definition, and no definition renamed from it
    /// takes it.
    package static func isOrphan(_ key: String, entries: [String: StoredOverride], registry: Registry) -> Bool {
        guard entries[key] != nil, registry[key] == nil else { return false }
        guard let heir = registry.definition(renamedFrom: key) else { return true }
        return type(heir, entries: entries).storedKey != key
    }

    /// The definition keys whose runtime value may change when the stored overrides of `storeKeys` change: each
    /// key itself and the definition renamed from it.
    package static func affectedDefinitions(by storeKeys: some Sequence<String>, registry: Registry) -> Set<String> {
        var keys = Set<String>()
        for key in storeKeys {
            if registry[key] != nil { keys.insert(key) }
            if let heir = registry.definition(renamedFrom: key) { keys.insert(heir.key) }
        }
        return keys
    }

    /// The store keys whose orphan status may change when `storeKeys` change: those keys and every key the
    /// affected definitions were renamed from.
    package static func orphanCandidates(for storeKeys: some Sequence<String>, registry: Registry) -> Set<String> {
        var keys = Set(storeKeys)
        for key in affectedDefinitions(by: keys, registry: registry) {
            keys.formUnion(registry[key]?.renamedFrom ?? [])
        }
        return keys
    }

    /// The warning for a stored value that does not fit its definition.
    static func rejectionDiagnostic(key: String, problem: ValueProblem) -> Diagnostic {
        .warning(at: nil, "runtime override of \(key) skipped: \(problem.message)", hint: problem.hint)
    }

    /// The warning for an orphan.
    static func orphanDiagnostic(key: String) -> Diagnostic {
        .warning(at: nil, "runtime override of \(key) is orphaned: no definition has this key",
                 hint: "it is kept in the store; `switchboard reset \(key)` removes it")
    }
}
