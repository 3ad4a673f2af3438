package import Switchboard

/// The breaking risks of a change, found from both sides and the runtime store.
package enum Risks {
    /// Every breaking risk, in key order: stored overrides that no longer fit or whose key is gone, a key whose type
    /// changes, removals that look like renames without `renamed_from`, and requirements of removed flags.
    package static func find(
        base: ReviewSide, head: ReviewSide, changes: [KeyChange], stored: [String: StoredOverride]
    ) -> [BreakingRisk] {
        var risks: [BreakingRisk] = []
        for (storeKey, entry) in stored.sorted(by: { $0.key < $1.key }) {
            let before = base.registry[storeKey] ?? base.registry.definition(renamedFrom: storeKey)
            let value = Impact.label(for: entry.value)
            guard let after = head.registry[storeKey] ?? head.registry.definition(renamedFrom: storeKey) else {
                if let before {
                    risks.append(BreakingRisk(key: before.key,
                                              reason: "stored override \(value) is for a key this change removes"))
                }
                continue
            }
            guard case .failure(let problem) = after.fit(entry.value) else { continue }
            // Only what this change breaks: an override that did not fit before is already skipped.
            if let before, case .failure = before.fit(entry.value) { continue }
            risks.append(BreakingRisk(key: after.key,
                                      reason: "stored override \(value) no longer fits: \(problem.message)"))
        }
        for change in changes where change.change == .modified || change.change == .renamed {
            guard let before = base.registry[change.renamedFrom ?? change.key], let after = head.registry[change.key],
                  before.type != after.type
            else { continue }
            risks.append(BreakingRisk(
                key: after.key,
                reason: "its type changes from \(before.type) to \(after.type): code that reads it as "
                    + "\(before.type.withArticle) (a generated key, a typed lookup, an OpenFeature client) gets its "
                    + "own default instead, and a value set for it elsewhere may no longer fit"))
        }
        let added = changes.filter { $0.change == .added }.compactMap { head.registry[$0.key] }
        for change in changes where change.change == .removed {
            guard let removed = base.registry[change.key] else { continue }
            if let twin = added.first(where: { $0.type == removed.type && $0.owner == removed.owner }) {
                let owner = removed.owner.map { "owner \($0)" } ?? "no owner"
                risks.append(BreakingRisk(
                    key: removed.key,
                    reason: "removed while \(twin.key) was added with the same type (\(removed.type)) and \(owner): "
                        + "a rename without `renamed_from: [\(removed.key)]` drops its stored overrides"))
            }
        }
        for definition in base.registry.definitions where head.registry[definition.key] == nil {
            for prerequisite in definition.targeting?.prerequisites ?? []
            where head.missingPrerequisites.contains(prerequisite.key) {
                risks.append(BreakingRisk(
                    key: definition.key,
                    reason: "requires \(prerequisite.key), which this change removes: the definition no longer loads"))
            }
        }
        return risks.sorted { $0.key != $1.key ? $0.key < $1.key : $0.reason < $1.reason }
    }
}
