import Switchboard

// The console's list rows: the admin list's JSON form of an entry, plus what a row shows and an editor needs. Each
// mark is decided here, by the library (`isExpired`, the winning override's origin), never by the page.

extension Snapshot.KeyState {
    /// A list row: the entry as `GET /v1/flags` has it, with the override's version (for `If-Match`), where the
    /// winning value comes from, whether the definition is stale, the constraints an editor offers, and
    /// `expires_at` when the runtime override it serves expires.
    func consoleJSON(resolution: Resolution, version: UInt64, today: Day, expiresAt: String? = nil) -> Value {
        guard case .object(var object) = adminJSON(resolution: resolution, expiresAt: expiresAt) else { return .null }
        let definition = self.definition
        object["version"] = .int(Int(clamping: version))
        object["origin"] = .string(override.map { "\($0.origin)" } ?? "\(definition.defaultLocation)")
        if definition.isExpired(on: today) { object["stale"] = true }
        if resolution.value == nil, resolution.reason == .disabled {
            // Switched off: no value, and every caller gets its own default. Not "targeted": nothing is evaluated.
            object["disabled"] = true
            object["served"] = .string(Message.disabled.text)
        } else if definition.targeting != nil {
            object["targeted"] = true
        }
        if !definition.tags.isEmpty { object["tags"] = .list(definition.tags.map(Value.string)) }
        if !definition.variants.isEmpty {
            object["variants"] = .list(definition.variants.map { variant in
                var fields: [String: Value] = ["name": .string(variant.name), "value": variant.value]
                if let location = variant.location { fields["location"] = .string(String(describing: location)) }
                return .object(fields)
            })
        }
        if let allowed = definition.allowedValues { object["values"] = .list(allowed) }
        if let minimum = definition.minimum { object["min"] = .double(minimum) }
        if let maximum = definition.maximum { object["max"] = .double(maximum) }
        if let pattern = definition.pattern { object["pattern"] = .string(pattern) }
        return .object(object)
    }
}
