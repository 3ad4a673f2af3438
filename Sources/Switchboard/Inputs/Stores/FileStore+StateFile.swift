extension FileStore {
    /// The state file, `overrides.json`: the overrides as of an offset of the audit log.
    struct StateFile {
        /// The overrides and the store's version as of ``auditOffset``.
        var contents: StoreContents
        /// The audit log's length when the file was written: the writes after it are replayed on top. `nil` in a
        /// file written before the audit log was the journal, which holds every write itself.
        var auditOffset: Int?
    }

    /// Reads a state file's overrides and version.
    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StoreContents {
        try decodeState(bytes, path: path).contents
    }

    /// Reads a state file.
    static func decodeState(_ bytes: [UInt8], path: String) throws(StoreError) -> StateFile {
        let corrupt = { (detail: String) in
            StoreError(
                .corrupt, message: "the override store \(path) is corrupt: \(detail)",
                hint: "it was left as it is; fix it by hand or move it aside (mv \(path) \(path).bad) to start empty")
        }
        let root: Value
        do {
            root = try Value(jsonBytes: bytes)
        } catch {
            throw corrupt("\(error)")
        }
        guard case .object(let object) = root, case .object(let overrides)? = object["overrides"] else {
            throw corrupt("expected an object with \"overrides\"")
        }
        var entries: [String: StoredOverride] = [:]
        for (key, item) in overrides {
            guard case .object(let fields) = item, let value = fields["value"] else {
                throw corrupt("the override of \(key) has no \"value\"")
            }
            entries[key] = StoredOverride(value: value, actor: fields["actor"]?.stringValue ?? "unknown",
                                          time: fields["time"]?.stringValue ?? "",
                                          version: Self.version(fields["version"]),
                                          expiresAt: fields["expires_at"]?.stringValue)
        }
        var offset: Int?
        if let field = object["audit_offset"] {
            guard let value = field.intValue, value >= 0 else {
                throw corrupt("\"audit_offset\" is not a byte offset")
            }
            offset = value
        }
        return StateFile(contents: StoreContents(entries: entries, version: Self.version(object["revision"])),
                         auditOffset: offset)
    }

    private static func version(_ value: Value?) -> UInt64 {
        value?.intValue.map { UInt64(max(0, $0)) } ?? 0
    }

    /// The state file format this code writes: 2 added `audit_offset`; 3 `expires_at` on overrides and audit
    /// records; 4 `verified` and `claimed_actor` on audit records. Older formats read without what they lack.
    static let formatVersion = 4

    /// A state file's text: `version` is the file format's (``formatVersion``), `revision` the store's version.
    static func encode(_ contents: StoreContents, auditOffset: Int) -> String {
        var out = "{\n  \"version\": \(formatVersion),\n  \"revision\": \(contents.version),\n"
        out += "  \"audit_offset\": \(auditOffset),\n"
        out += "  \"overrides\": {"
        for (index, key) in contents.entries.keys.sorted().enumerated() {
            let entry = contents.entries[key]!
            out += index == 0 ? "\n    " : ",\n    "
            Value.writeJSONString(key, to: &out)
            out += ": "
            // The fields in sorted order, as a JSON object of them would be written, without building one.
            out += "{\"actor\":"
            Value.writeJSONString(entry.actor, to: &out)
            if let expiresAt = entry.expiresAt {
                out += ",\"expires_at\":"
                Value.writeJSONString(expiresAt, to: &out)
            }
            out += ",\"time\":"
            Value.writeJSONString(entry.time, to: &out)
            out += ",\"value\":"
            entry.value.writeJSON(to: &out)
            out += ",\"version\":\(entry.version)}"
        }
        out += contents.entries.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return out
    }
}
