import YAML

// JSON forms of evaluation results, shared by the CLI's `--json`, the REPL and the server's admin API.

extension Resolution {
    /// The resolution as a JSON object: key, value, reason, and layer, variant and error when present, and
    /// `expires_at` when the runtime override it serves expires then (ISO 8601 UTC).
    public func jsonValue(key: String, expiresAt: String? = nil) -> Value {
        var object: [String: Value] = ["key": .string(key), "value": value ?? .null, "reason": .string(reason.rawValue)]
        if let layer { object["layer"] = .string(layer.rawValue) }
        if let variant { object["variant"] = .string(variant) }
        if let errorCode { object["errorCode"] = .string(errorCode.rawValue) }
        if let errorMessage { object["errorMessage"] = .string(errorMessage) }
        if let expiresAt { object["expires_at"] = .string(expiresAt) }
        return .object(object)
    }
}

extension Explanation {
    /// The explanation as JSON.
    public var jsonValue: Value { jsonValue(expiresAt: nil) }

    /// The explanation as JSON, with `expires_at` when the runtime override expires then (ISO 8601 UTC).
    public func jsonValue(expiresAt: String?) -> Value {
        let steps: [Value] = steps.map { step in
            var object: [String: Value] = ["layer": .string(step.layer.rawValue), "value": step.value ?? .null]
            if let origin = step.origin { object["origin"] = .string(origin) }
            switch step.status {
            case .absent: object["status"] = "absent"
            case .winner: object["status"] = "winner"
            case .shadowed: object["status"] = "shadowed"
            case .rejected(let why):
                object["status"] = "rejected"
                object["problem"] = .string(why)
            }
            return .object(object)
        }
        var object: [String: Value] = [
            "key": .string(key), "type": .string(definition.type.rawValue), "kind": .string(definition.kind.rawValue),
            "value": resolution.value ?? .null, "layer": resolution.layer.map { .string($0.rawValue) } ?? .null,
            "reason": .string(resolution.reason.rawValue), "layers": .list(steps),
            "environmentVariable": .string(environmentVariable),
            "targeting": targeting.map(Value.string) ?? .null,
        ]
        if let expiresAt { object["expires_at"] = .string(expiresAt) }
        if let schedule = definition.schedule {
            // Each step as written, with whether it has taken effect at the explanation's time and what it does
            // in words (the console draws these; it decides nothing).
            object["timeline"] = .list(schedule.steps.map { step in
                var fields = step.jsonFields
                fields["past"] = .bool(step.at <= time)
                fields["summary"] = .string(step.summary)
                return .object(fields)
            })
        }
        return .object(object)
    }
}

extension Snapshot.KeyState {
    /// The entry as JSON for `list --json`, with its resolution for the context listed, and `expires_at` when the
    /// runtime override expires then (ISO 8601 UTC).
    public func jsonValue(resolution: Resolution, expiresAt: String? = nil) -> Value {
        let definition = self.definition
        let fixed = resolution
        var object: [String: Value] = [
            "key": .string(definition.key), "kind": .string(definition.kind.rawValue),
            "type": .string(definition.type.rawValue), "default": definition.defaultValue,
            "value": fixed.value ?? .null, "layer": fixed.layer.map { .string($0.rawValue) } ?? .null,
            "location": .string(definition.location.description),
        ]
        if let description = definition.description { object["description"] = .string(description) }
        if let variant = fixed.variant { object["variant"] = .string(variant) }
        if let owner = definition.owner { object["owner"] = .string(owner) }
        if let expires = definition.expires { object["expires"] = .string(expires.description) }
        if let expiresAt { object["expires_at"] = .string(expiresAt) }
        return .object(object)
    }
}
