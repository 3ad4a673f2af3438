public import Switchboard

extension AuditRecord {
    /// The audit log as a table, oldest first (the REPL's `log` and `switchboard log`), or a sentence when it is
    /// empty. An expiry's entry reads `expired: true → (none)`.
    public static func renderedLog(_ records: [AuditRecord], terminal: Terminal) -> String {
        guard !records.isEmpty else { return "no changes have been recorded\n" }
        var table = Table(header: ["TIME", "ACTOR", "KEY", "CHANGE"])
        for record in records {
            var change = "\(record.old?.shortText ?? "(none)") → \(record.new?.shortText ?? "(none)")"
            if record.event == .expired { change = "expired: " + change }
            table.rows.append([record.time, record.actor, record.key, change])
        }
        return table.render(terminal: terminal)
    }
}
