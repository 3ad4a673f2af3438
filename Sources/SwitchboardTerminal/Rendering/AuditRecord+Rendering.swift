public import Switchboard

extension AuditRecord {
    /// The audit log as a table, oldest first (the REPL's `log` and `switchboard log`), or a sentence when it is
    /// empty. A write that expires reads `(none) → true until 2026-12-01T09:00:00.000Z` (so that changing only
    /// the expiry is not `true → true` with nothing to tell), a write over it `true until … → true` when the
    /// write that set that expiry is among `records`, an expiry's entry `expired: true → (none)`; the actor column
    /// reads as ``renderedActor``.
    public static func renderedLog(_ records: [AuditRecord], terminal: Terminal) -> String {
        guard !records.isEmpty else { return "no changes have been recorded\n" }
        var table = Table(header: ["TIME", "ACTOR", "KEY", "CHANGE"])
        // The expiry of each key's override as the records shown so far left it: a write that drops it reads
        // `true until … → true`, not `true → true`.
        var expiries: [String: String] = [:]
        for record in records {
            var old = record.old?.shortText ?? "(none)"
            if record.old != nil, record.event != .expired, let expiresAt = expiries[record.key] {
                old += " until \(expiresAt)"
            }
            var change = "\(old) → \(record.new?.shortText ?? "(none)")"
            if record.event == .expired {
                change = "expired: " + change
            } else if record.new != nil, let expiresAt = record.expiresAt {
                change += " until \(expiresAt)"
            }
            expiries[record.key] = record.event == .expired || record.new == nil ? nil : record.expiresAt
            table.rows.append([record.time, record.renderedActor, record.key, change])
        }
        return table.render(terminal: terminal)
    }

    /// Who made the write, as the log shows it: `ana` for a verified person, `ana (claimed "mallory")` when the
    /// client sent another name, and `alice (unverified)` for a name the writer gave that nobody checked (the
    /// command line, the REPL, library writes, and records written before writes were attributed). A name that
    /// could pass for another or break the line is quoted (``PersonName/shown(_:)``).
    public var renderedActor: String {
        var notes: [String] = []
        if !verified { notes.append("unverified") }
        if let claimedActor { notes.append("claimed \(Message.quoted(claimedActor))") }
        let name = PersonName.shown(actor)
        return notes.isEmpty ? name : "\(name) (\(notes.joined(separator: ", ")))"
    }
}
