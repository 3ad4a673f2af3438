package import Switchboard

extension Review {
    /// The review as a JSON value: `base`, `head`, `changes` (`key`, `change`, `fields`, `details`, `impact` when
    /// measured, `renamed_from` for a rename), `breaking` (`key`, `reason`) and `notes`.
    package var jsonValue: Value {
        .object([
            "base": .string(base),
            "head": .string(head),
            "changes": .list(changes.map(\.jsonValue)),
            "breaking": .list(breaking.map { .object(["key": .string($0.key), "reason": .string($0.reason)]) }),
            "notes": .list(notes.map(Value.string)),
        ])
    }
}

extension KeyChange {
    /// One change as JSON.
    package var jsonValue: Value {
        var object: [String: Value] = [
            "key": .string(key),
            "change": .string(change.rawValue),
            "fields": .list(fields.map(Value.string)),
            "details": .list(details.map(Value.string)),
        ]
        if let impact {
            object["impact"] = .object([
                "contexts": .int(impact.contexts),
                "changed": .int(impact.changed),
                "before": .object(impact.before.mapValues(Value.int)),
                "after": .object(impact.after.mapValues(Value.int)),
            ])
        }
        if let renamedFrom { object["renamed_from"] = .string(renamedFrom) }
        return .object(object)
    }
}
