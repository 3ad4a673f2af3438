/// One publication: the snapshot replaced, the one now in service, and what changed between them.
public struct Publication: Sendable {
    /// The snapshot before.
    public let old: Snapshot
    /// The snapshot now in service.
    public let new: Snapshot
    /// Every key whose resolution changed: its value or layer for the empty context, or (after a reload) what
    /// its definition serves, such as its targeting. In registry order; removed keys last.
    public let changes: [ValueChange]

    /// Compares two snapshots. `positions` limits the comparison to the positions a runtime write replaced
    /// (the definitions are then the same); `nil` compares every key, as after a reload.
    init(old: Snapshot, new: Snapshot, positions: [Int]?) {
        self.old = old
        self.new = new
        var changes: [ValueChange] = []
        if let positions {
            for position in positions.sorted() {
                let before = old.table[position].contextFree
                let after = new.table[position].contextFree
                if Self.differs(before, after) {
                    changes.append(ValueChange(of: new.registry.definitions[position].key, from: before.value,
                                               to: after, revision: new.revision))
                }
            }
        } else {
            let sameDefinitions = old.definitions === new.definitions
            for position in new.registry.definitions.indices {
                let key = new.registry.definitions[position].key
                let after = new.table[position].contextFree
                guard let oldPosition = old.registry.position(of: key) else {
                    changes.append(ValueChange(of: key, from: nil, to: after, revision: new.revision))
                    continue
                }
                let before = old.table[oldPosition].contextFree
                let changed = Self.differs(before, after)
                    || (!sameDefinitions
                        && old.definitions.signature(at: oldPosition) != new.definitions.signature(at: position))
                if changed {
                    changes.append(ValueChange(of: key, from: before.value, to: after, revision: new.revision))
                }
            }
            for definition in old.registry.definitions where new.registry[definition.key] == nil {
                changes.append(ValueChange(of: definition.key, from: old.entry(definition.key)?.contextFree.value,
                                           to: nil, revision: new.revision))
            }
        }
        self.changes = changes
    }

    /// Whether a key's resolution for the empty context changed in what a change reports: its value, layer or
    /// reason.
    private static func differs(_ before: Resolution, _ after: Resolution) -> Bool {
        before.value != after.value || before.layer != after.layer || before.reason != after.reason
    }
}
