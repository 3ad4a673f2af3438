public import Switchboard
import YAML

/// What can go: the decision behind `switchboard stale`, made from the definitions, the code that reads them,
/// the store's audit log and, when asked, what a running server saw.
///
/// A definition is listed for each reason that holds, so one key may appear under several:
///
/// - **expired**: a flag or preference past its `expires` day;
/// - **unreferenced**: no Swift code reads it (as `switchboard refs` finds, less the keys allowed to go without);
/// - **constant**: a flag with no targeting at all (no rules, no rollout, no `requires`, no kill switch) whose
///   runtime override did not change (nor expire) for the last N days and does not expire later, and whose
///   `schedule` has no step in that time or to come, so it served one value to everyone all that time.
///   Preferences are settings meant to hold one value, and are never listed as constant;
/// - **not evaluated**: with a server's usage, a definition the server did not evaluate for N days. A server that
///   has counted for less than N days (restarted lately) lists none: what it did not see in that time says
///   nothing yet about a definition being unused.
///
/// The server's usage also gives the keys clients asked for that no file defines.
public struct StaleReport: Sendable, Hashable {
    /// A definition listed under one reason.
    public struct Entry: Sendable, Hashable {
        /// The definition's key.
        public var key: String
        /// The file that defines it.
        public var file: String
        /// The line of its key in that file.
        public var line: Int
        /// For an expired definition, its `expires` day.
        public var expires: Day?
        /// For a constant flag, the value everyone was served: the runtime override's, else the default.
        public var value: Value?
        /// For a constant flag, the time of the last change to its runtime override (older than the window),
        /// `nil` when the audit log has none.
        public var lastChange: String?
        /// For a definition a server did not evaluate lately, its last evaluation (`nil`: none since the server
        /// started counting).
        public var lastEvaluated: String?
        /// For a definition a server did not evaluate lately, how many evaluations it counted (`nil`: the server
        /// does not define the key).
        public var evaluations: Int?

        init(_ definition: Definition) {
            key = definition.key
            file = definition.location.file
            line = definition.location.line
        }
    }

    /// A key clients asked a server for that no file defines.
    public struct UnknownKey: Sendable, Hashable {
        /// The key as clients sent it.
        public var key: String
        /// How many lookups the server counted.
        public var lookups: Int
        /// The defined key it most likely means: the definition that lists it in `renamed_from`, else the nearest
        /// key by edit distance.
        public var suggestion: String?
    }

    /// What a running server saw.
    public struct Server: Sendable, Hashable {
        /// When it started counting, ISO 8601 UTC.
        public var since: String
        /// Whether it has counted for the whole window; when not, ``notEvaluated`` is empty.
        public var countedWholeWindow: Bool
        /// Definitions it did not evaluate within the window, in declaration order.
        public var notEvaluated: [Entry]
        /// Keys clients asked for that no file defines, most looked-up first.
        public var unknown: [UnknownKey]
    }

    /// The window, in days, for ``constant`` and ``Server/notEvaluated``.
    public var days: Int
    /// How many definitions were considered.
    public var definitionCount: Int
    /// Definitions past their `expires` day, in declaration order.
    public var expired: [Entry]
    /// Definitions no code references, in declaration order.
    public var unreferenced: [Entry]
    /// Flags that served one value to everyone for the whole window, in declaration order.
    public var constant: [Entry]
    /// What the server saw; `nil` when no server was asked.
    public var server: Server?
    /// The time of the audit log's first record, ISO 8601 UTC; `nil` when the log is empty. Before it the report
    /// knows nothing of the runtime overrides.
    public var auditSince: String?
    /// Whether the audit log reaches back over the whole window. When it does not, a flag listed as ``constant``
    /// is so by its definition and by what the log holds: an override changed before the log begins (or in
    /// another store) is not seen.
    public var auditCoversWindow: Bool

    /// Whether nothing is listed: no definition can go, and the server saw no unknown key.
    public var isEmpty: Bool {
        expired.isEmpty && unreferenced.isEmpty && constant.isEmpty
            && (server.map { $0.notEvaluated.isEmpty && $0.unknown.isEmpty } ?? true)
    }

    /// The distinct keys listed under any reason, in declaration order.
    public var keys: [String] {
        var seen = Set<String>()
        return (expired + unreferenced + constant + (server?.notEvaluated ?? []))
            .map(\.key).filter { seen.insert($0).inserted }
    }

    /// Decides what is stale.
    ///
    /// - Parameters:
    ///   - registry: the definitions.
    ///   - references: who reads each key (``ReferenceReport``, with the allowed-unreferenced keys marked).
    ///   - audit: the store's audit log, oldest first, as `RuntimeStore.auditLog(limit:)` returns it; the
    ///     expiries of overrides that expired by `now` are derived from it, as `switchboard log` shows them.
    ///   - usage: what a server saw (`GET /v1/usage`), or `nil`.
    ///   - days: the window for constant flags and for evaluations.
    ///   - now: the current time in seconds since the epoch.
    package init(registry: Registry, references: ReferenceReport, audit: [AuditRecord], usage: UsageReport?,
                 days: Int, now: Double) {
        self.days = days
        definitionCount = registry.count
        let today = Day(daysSinceEpoch: Int((now / 86_400).rounded(.down)))
        let cutoff = now - Double(days) * 86_400
        auditSince = audit.min { (UsageReport.seconds(of: $0.time) ?? .infinity)
            < (UsageReport.seconds(of: $1.time) ?? .infinity) }?.time
        auditCoversWindow = auditSince.flatMap(UsageReport.seconds(of:)).map { $0 <= cutoff } ?? false
        expired = registry.definitions.filter { $0.isExpired(on: today) }.map { definition in
            var entry = Entry(definition)
            entry.expires = definition.expires
            return entry
        }
        let unreferencedKeys = Set(references.unreferenced)
        unreferenced = registry.definitions.filter { unreferencedKeys.contains($0.key) }.map(Entry.init)

        // The last audit record of each key (and of the keys it was renamed from), by time; an override that
        // expired changed what everyone is served at its expiry.
        var lastRecord: [String: (seconds: Double, record: AuditRecord)] = [:]
        for record in AuditRecord.withExpiries(audit, now: now) {
            guard let seconds = UsageReport.seconds(of: record.time) else { continue }
            if let previous = lastRecord[record.key], previous.seconds > seconds { continue }
            lastRecord[record.key] = (seconds, record)
        }
        constant = registry.definitions.compactMap { definition in
            // A schedule step within the window, or still to come, changes what everyone is served.
            if let steps = definition.schedule?.steps, steps.contains(where: { $0.at >= cutoff }) { return nil }
            let inForce = definition.inForce(at: now)
            guard definition.kind == .flag, inForce.targeting == nil else { return nil }
            let last = ([definition.key] + definition.renamedFrom).compactMap { lastRecord[$0] }
                .max { $0.seconds < $1.seconds }
            if let last, last.seconds >= cutoff { return nil }
            // An override in force that expires later is a change still to come.
            if let last, last.record.new != nil, let expiry = last.record.expiresAt.flatMap(UsageReport.seconds(of:)),
               expiry > now {
                return nil
            }
            var entry = Entry(definition)
            entry.value = last?.record.new ?? inForce.defaultValue
            entry.lastChange = last?.record.time
            return entry
        }

        server = usage.map { usage in
            let byKey = Dictionary(usage.keys.map { ($0.key, $0) }) { first, _ in first }
            let countedWholeWindow = UsageReport.seconds(of: usage.since).map { $0 <= cutoff } ?? true
            let notEvaluated = !countedWholeWindow ? [] : registry.definitions.compactMap { definition -> Entry? in
                let used = byKey[definition.key]
                if let time = used?.lastEvaluated, let seconds = UsageReport.seconds(of: time), seconds >= cutoff {
                    return nil
                }
                var entry = Entry(definition)
                entry.lastEvaluated = used?.lastEvaluated
                entry.evaluations = used?.evaluations
                return entry
            }
            let unknown = usage.unknown.map { unknown in
                UnknownKey(key: unknown.key, lookups: unknown.lookups,
                           suggestion: registry.definition(renamedFrom: unknown.key)?.key
                               ?? Suggestions.nearest(to: unknown.key, in: registry.keys))
            }
            return Server(since: usage.since, countedWholeWindow: countedWholeWindow, notEvaluated: notEvaluated,
                          unknown: unknown)
        }
    }
}
