extension AuditRecord {
    /// The last `limit` entries of a store's history as people read it (``withExpiries(_:now:)``): its last records
    /// and the expiries among them, those of overrides set before them included (the last records alone would lose
    /// an expiry whose override was set before them, however recent). What `switchboard log`, the REPL's `log`,
    /// `GET /v1/audit` and the console's history show.
    ///
    /// - Parameters:
    ///   - store: the runtime store.
    ///   - limit: how many entries, at most.
    ///   - now: the time of the history, in seconds since the Unix epoch.
    public static func history(of store: any RuntimeStore, limit: Int, now: Double) throws(StoreError)
        -> [AuditRecord]
    {
        let (predecessors, last) = try store.auditLogWithPredecessors(limit: limit)
        // The predecessors are all older than the last records, which make at least `limit` entries: only their
        // expiries can reach the suffix.
        return Array(withExpiries(predecessors + last, now: now).suffix(limit))
    }

    /// The history as people read it: `records` (a store's audit log, oldest first) with an `expired` entry after
    /// each record whose override expired by `now`, placed at its expiry among the later records.
    ///
    /// An expiry writes nothing to any store, so every replica derives the same history from the same records. A
    /// record whose override was replaced or removed before its expiry (a later record of the key, written earlier
    /// than that moment) gives no entry. The entry is the record that set the value, with the expiry as its time,
    /// the expired value as `old`, no `new`, and ``event`` `.expired`.
    ///
    /// - Parameters:
    ///   - records: audit records, oldest first, as ``RuntimeStore/auditLog(limit:)`` returns them.
    ///   - now: the time of the history, in seconds since the Unix epoch: expiries after it have not happened yet.
    public static func withExpiries(_ records: [AuditRecord], now: Double) -> [AuditRecord] {
        // The expired entries to place before the record at each index (`records.count`: at the end).
        var placed: [Int: [(expiry: Double, entry: AuditRecord)]] = [:]
        for (index, record) in records.enumerated() {
            guard record.event == .change, let value = record.new, let expiresAt = record.expiresAt,
                  let expiry = Timestamp.parse(expiresAt), expiry <= now
            else { continue }
            let later = records[(index + 1)...]
            if let next = later.first(where: { $0.key == record.key }),
               let written = Timestamp.parse(next.time), written < expiry
            {
                continue
            }
            // After the records written before the expiry, and before the first written after it.
            let position = later.firstIndex { Timestamp.parse($0.time).map { $0 > expiry } ?? false } ?? records.count
            let entry = AuditRecord(time: expiresAt, attribution: record.attribution, key: record.key, old: value,
                                    new: nil, version: record.version, expiresAt: expiresAt, event: .expired)
            placed[position, default: []].append((expiry, entry))
        }
        guard !placed.isEmpty else { return records }
        var history: [AuditRecord] = []
        history.reserveCapacity(records.count + placed.count)
        for index in 0...records.count {
            if let entries = placed[index] {
                history += entries.enumerated()
                    .sorted { ($0.element.expiry, $0.offset) < ($1.element.expiry, $1.offset) }
                    .map(\.element.entry)
            }
            if index < records.count { history.append(records[index]) }
        }
        return history
    }
}
