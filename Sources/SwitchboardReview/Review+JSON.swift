package import Switchboard

extension Review {
    /// The review as a JSON value: `base`, `head`, `changes` (`key`, `change`, `fields`, `details`, `impact` when
    /// measured, `later_impacts` from later schedule steps, `renamed_from` for a rename), `breaking` (`key`,
    /// `reason`) and `notes`.
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
        if let impact { object["impact"] = impact.jsonValue }
        if !laterImpacts.isEmpty {
            object["later_impacts"] = .list(laterImpacts.map { later in
                var fields = later.impact.jsonValue.objectValue ?? [:]
                fields["from"] = .string(Clock.timestamp(secondsSinceEpoch: later.at))
                return .object(fields)
            })
        }
        if let renamedFrom { object["renamed_from"] = .string(renamedFrom) }
        return .object(object)
    }
}

extension Impact {
    /// The impact as JSON: `contexts`, `changed`, `before` and `after`.
    package var jsonValue: Value {
        .object([
            "contexts": .int(contexts),
            "changed": .int(changed),
            "before": .object(before.mapValues(Value.int)),
            "after": .object(after.mapValues(Value.int)),
        ])
    }
}
