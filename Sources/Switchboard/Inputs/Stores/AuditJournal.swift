/// The file store's audit log read as its journal: `audit.jsonl` is the history people read with `switchboard log`,
/// and the record of every write that the state file does not hold yet.
///
/// A write appends its audit records, one JSON object a line, in one `write`, then syncs the log once; the
/// append is the write. Every record but the last of a write carries `"more": true`, so a reader tells a
/// complete write (its last line ends in a newline) from one a crash cut short (an unterminated line, or lines
/// that all say `more`). Readers ignore a write cut short; the next writer truncates it.
///
/// The state file records the log's length when it was written (its `audit_offset`); replaying the complete writes
/// after that offset onto it gives the store. Each replayed write must be the next version, so a log that does
/// not continue the state file is noticed, never silently applied.
enum AuditJournal {
    /// The log lines of one write's records, in order, each but the last marked `"more": true`.
    static func lines(_ records: [AuditRecord]) -> String {
        var out = ""
        for (index, record) in records.enumerated() {
            var fields = record.jsonFields
            if index < records.count - 1 { fields["more"] = .bool(true) }
            Value.object(fields).writeJSON(to: &out)
            out += "\n"
        }
        return out
    }

    /// What replaying a stretch of the log gave.
    struct Replay {
        /// The overrides with every complete write applied.
        var contents: StoreContents
        /// One delta per write applied, oldest first.
        var deltas: [StoreDelta]
        /// The log offset after the last complete write.
        var end: Int
        /// Whether bytes after ``end`` are a write cut short (by a crash, or still being written).
        var torn: Bool
    }

    /// A line after the state file's offset that is not the next write's record.
    struct Problem: Error {
        /// The line's offset in the log.
        var offset: Int
        /// What is wrong with it.
        var detail: String
    }

    /// Applies the complete writes in `bytes`, the log from offset `start` on, to `contents`.
    ///
    /// - Throws: ``Problem`` at the first newline-terminated line that is not a record of the next version.
    static func replay(_ bytes: [UInt8], from start: Int, onto contents: StoreContents) throws(Problem) -> Replay {
        var contents = contents
        var deltas: [StoreDelta] = []
        var pending: [AuditRecord] = []
        var lineStart = 0
        var end = 0
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[lineStart..<newline]
            defer { lineStart = newline + 1 }
            if line.isEmpty, pending.isEmpty {
                end = newline + 1
                continue
            }
            guard let (record, more) = parse(line) else {
                throw Problem(offset: start + lineStart, detail: "the line is not an audit record")
            }
            let expected = contents.version + 1
            guard record.version == expected else {
                throw Problem(offset: start + lineStart,
                              detail: "a record of version \(record.version) where version \(expected) comes next")
            }
            pending.append(record)
            guard !more else { continue }
            var changed: [String: StoredOverride?] = [:]
            for record in pending {
                let entry = record.new.map {
                    StoredOverride(value: $0, actor: record.actor, time: record.time, version: record.version,
                                   expiresAt: record.expiresAt)
                }
                contents.entries[record.key] = entry
                changed[record.key] = .some(entry)
            }
            contents.version = expected
            deltas.append(StoreDelta(version: expected, changed: changed))
            pending = []
            end = newline + 1
        }
        return Replay(contents: contents, deltas: deltas, end: start + end, torn: end < bytes.count)
    }

    /// Every record in a log, oldest first, without a write cut short at the end (which readers do not apply
    /// either). A line that is not a record (blank lines aside) is the log's corruption, as the replay finds it:
    /// a history without it would look whole.
    static func history(_ bytes: [UInt8]) throws(Problem) -> [AuditRecord] {
        var records: [AuditRecord] = []
        var unfinished = 0
        var lineStart = 0
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            defer { lineStart = newline + 1 }
            if newline == lineStart { continue }
            guard let (record, more) = parse(bytes[lineStart..<newline]) else {
                throw Problem(offset: lineStart, detail: "the line is not an audit record")
            }
            records.append(record)
            unfinished = more ? unfinished + 1 : 0
        }
        return Array(records.dropLast(unfinished))
    }

    /// A record and whether more records of its write follow; `nil` for a line that is not a record.
    private static func parse(_ line: ArraySlice<UInt8>) -> (AuditRecord, more: Bool)? {
        guard let value = try? Value(jsonBytes: Array(line)), let record = AuditRecord(json: value),
              case .object(let fields) = value
        else { return nil }
        return (record, fields["more"] == .bool(true))
    }
}
