/// Where the runtime layer's overrides persist: the seam between a board and its store.
///
/// Two stores ship: ``FileStore``, a JSON file beside the definitions (the default, one machine), and a
/// database store for overrides shared by every replica. A store keeps, for each key, the override's value, who
/// set it, when, and the store version it was written at; every write bumps the store's version and appends an
/// audit record for each key it changed.
///
/// Every write is attributed (an ``Attribution``): its audit records keep the actor, the name the client claimed
/// when that was another, and whether the person was verified.
///
/// Writes are all-or-nothing and may be conditional: ``apply(_:by:condition:)`` with a
/// ``WriteCondition`` fails with `StoreError.Kind.conflict` and writes nothing when the key's override is no
/// longer at the version the caller read (compare-and-set).
public protocol RuntimeStore: AnyObject, Sendable {
    /// A store problem.
    typealias StoreError = Switchboard.StoreError
    /// One audit record.
    typealias AuditRecord = Switchboard.AuditRecord

    /// What kind of store this is, for `explain` and health: `file`, `postgres`.
    var kind: String { get }
    /// Where it is, for messages: a path, or a URL without its password.
    var location: String { get }

    /// Every override with the store's version.
    func read() throws(StoreError) -> StoreContents

    /// Applies changes in one all-or-nothing write: each key is set to its value, or its override removed when
    /// the value is `nil`. Appends an audit record for every key whose value changes; changes nothing (and
    /// bumps no version) when no value changes. Overrides record `attribution`'s actor; audit records the whole
    /// attribution.
    ///
    /// - Throws: ``StoreError``; nothing is written then.
    func apply(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite

    /// The overrides changed after `version`, when the store can tell without reading everything; `nil` when
    /// it cannot, and the caller reads everything and compares. Replicas catch up with it after a notification.
    func changes(since version: UInt64) throws(StoreError) -> StoreDelta?

    /// The last `limit` audit records, oldest first.
    func auditLog(limit: Int) throws(StoreError) -> [AuditRecord]

    /// The last `limit` audit records, oldest first, and before them each key's last record older than they are
    /// (oldest first; a store may leave out those that set no expiring override): an override set before the last
    /// records may expire among them, and its expiry belongs in the history they make
    /// (``AuditRecord/history(of:limit:now:)``). A default reads the whole log.
    func auditLogWithPredecessors(limit: Int) throws(StoreError) -> (predecessors: [AuditRecord], last: [AuditRecord])

    /// Fills an empty store with exported overrides and audit records, keeping their actors (with claimed actors
    /// and verification), times and versions (`switchboard store import`).
    ///
    /// - Throws: ``StoreError`` when the store already has overrides or audit records; nothing is written then.
    func importing(_ export: StoreExport) throws(StoreError)

    /// Calls `handler` whenever the store may have been changed by someone else (another process, another
    /// replica), until the returned subscription is cancelled or released. `interval` is how often a store that
    /// cannot be told of changes checks for them.
    func watch(every interval: Duration, _ handler: @escaping @Sendable () -> Void) -> ChangeSubscription
}

extension RuntimeStore {
    /// A store that cannot tell what changed: readers compare everything.
    public func changes(since version: UInt64) throws(StoreError) -> StoreDelta? { nil }

    /// Reads the whole log and keeps, of the records before the last `limit`, each key's last.
    public func auditLogWithPredecessors(
        limit: Int
    ) throws(StoreError) -> (predecessors: [AuditRecord], last: [AuditRecord]) {
        let records = try auditLog(limit: .max)
        let split = records.count - min(limit, records.count)
        var latest: [String: Int] = [:]
        for index in records[..<split].indices { latest[records[index].key] = index }
        return (latest.values.sorted().map { records[$0] }, Array(records[split...]))
    }

    /// Removes the overrides of `keys` (of every key when `nil`) that count at `now` (seconds since the epoch), in
    /// one write logged as `attribution`'s, straight on the store: what `reset` does when the definitions cannot be
    /// read, so that a broken edit never keeps anyone from clearing an override. Keys are taken as written: a key's
    /// `renamed_from` names are in the definitions. Returns the keys removed, sorted; with none, writes nothing.
    package func removeLiveOverrides(
        of keys: [String]?, by attribution: Attribution, at now: Double
    ) throws(StoreError) -> [String] {
        let live = try read().entries.filter { !$0.value.isExpired(at: now) }.keys
        let removing = keys.map { keys in live.filter(keys.contains) } ?? Array(live)
        guard !removing.isEmpty else { return [] }
        _ = try apply(removing.map { OverrideChange(key: $0, value: nil) }, by: attribution, condition: nil)
        return removing.sorted()
    }
}

/// Everything a store holds, for moving it to another store: the overrides with their versions and the whole
/// audit log. Its JSON form is what `switchboard store export` writes and `switchboard store import` reads.
public struct StoreExport: Sendable, Equatable {
    /// The overrides and the store's version.
    public var contents: StoreContents
    /// The audit log, oldest first.
    public var audit: [AuditRecord]

    /// Creates an export.
    public init(contents: StoreContents, audit: [AuditRecord]) {
        self.contents = contents
        self.audit = audit
    }

    /// Reads everything from a store.
    public init(from store: any RuntimeStore) throws(StoreError) {
        self.init(contents: try store.read(), audit: try store.auditLog(limit: .max))
    }

    /// The export as JSON: `{"format": "switchboard-store", "version": N, "overrides": {...}, "audit": [...]}`,
    /// keys sorted, one audit record a line.
    public var json: String {
        var out = "{\"format\":\"switchboard-store\",\"version\":\(contents.version),\"overrides\":{"
        for (index, key) in contents.entries.keys.sorted().enumerated() {
            let entry = contents.entries[key]!
            if index > 0 { out += "," }
            out += "\n"
            Value.writeJSONString(key, to: &out)
            out += ":"
            var fields: [String: Value] = ["value": entry.value, "actor": .string(entry.actor),
                                           "time": .string(entry.time), "version": .int(Int(clamping: entry.version))]
            if let expiresAt = entry.expiresAt { fields["expires_at"] = .string(expiresAt) }
            Value.object(fields).writeJSON(to: &out)
        }
        out += "},\"audit\":["
        for (index, record) in audit.enumerated() { out += (index > 0 ? ",\n" : "\n") + record.json }
        return out + "]}\n"
    }

    /// Reads an export's JSON; exports written before overrides could expire (without `expires_at`) load as they
    /// are, and audit records written before writes were attributed (without `verified`) read as unverified.
    public init(json text: String, source: String) throws(StoreError) {
        let invalid = { (detail: String) in
            StoreError(.corrupt, message: "\(source) is not a Switchboard store export: \(detail)",
                       hint: "write one with `switchboard store export --to FILE`")
        }
        let root: Value
        do {
            root = try Value(json: text)
        } catch {
            throw invalid("\(error)")
        }
        guard case .object(let object) = root, object["format"] == "switchboard-store",
              case .object(let overrides)? = object["overrides"], case .list(let audit)? = object["audit"]
        else { throw invalid("expected an object with \"format\": \"switchboard-store\", overrides and audit") }
        var entries: [String: StoredOverride] = [:]
        for (key, item) in overrides {
            guard case .object(let fields) = item, let value = fields["value"],
                  let actor = fields["actor"]?.stringValue, let time = fields["time"]?.stringValue
            else { throw invalid("the override of \(key) lacks value, actor or time") }
            entries[key] = StoredOverride(value: value, actor: actor, time: time,
                                          version: UInt64(max(0, fields["version"]?.intValue ?? 0)),
                                          expiresAt: fields["expires_at"]?.stringValue)
        }
        var records: [AuditRecord] = []
        for item in audit {
            guard let record = AuditRecord(json: item) else { throw invalid("an audit record has no key") }
            records.append(record)
        }
        self.init(contents: StoreContents(entries: entries, version: UInt64(max(0, object["version"]?.intValue ?? 0))),
                  audit: records)
    }
}

extension StoreContents: Equatable {}

/// What changed in a store after some version.
public struct StoreDelta: Sendable {
    /// The store's version now.
    public var version: UInt64
    /// Each changed key with its override now (`nil`: removed).
    public var changed: [String: StoredOverride?]

    /// Creates a delta.
    public init(version: UInt64, changed: [String: StoredOverride?]) {
        self.version = version
        self.changed = changed
    }

    /// Merges deltas in version order: the later change of a key wins.
    public init(merging deltas: [StoreDelta], from version: UInt64) {
        self.version = deltas.last?.version ?? version
        changed = [:]
        for delta in deltas {
            for (key, entry) in delta.changed { changed[key] = .some(entry) }
        }
    }
}

/// One persisted override: the value, who set it, when, and the store version it was written at.
public struct StoredOverride: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// Who set it.
    public var actor: String
    /// When, in ISO 8601 UTC.
    public var time: String
    /// The store version of the write that set it (0 for overrides written before stores had versions).
    public var version: UInt64
    /// When it stops counting, in ISO 8601 UTC as ``time`` (`nil`: never). An expired override stays in the store
    /// until its key is set again (a reset writes nothing for it); every board skips it from this moment on.
    public var expiresAt: String?

    /// ``expiresAt`` in seconds since the epoch.
    package var expiry: Double? { expiresAt.flatMap(Timestamp.parse) }

    /// Whether the override has stopped counting at `now` (seconds since the epoch).
    package func isExpired(at now: Double) -> Bool {
        guard let expiry else { return false }
        return expiry <= now
    }

    /// `stored` when it still counts at `time` (ISO 8601, as stores record times); `nil` when there is none or it
    /// has expired by then.
    package static func counting(_ stored: StoredOverride?, at time: String) -> StoredOverride? {
        guard let stored, let now = Timestamp.parse(time) else { return stored }
        return stored.isExpired(at: now) ? nil : stored
    }

    /// The current time as stores record it: ISO 8601 UTC with milliseconds, `2026-11-23T14:05:09.123Z`.
    public static func currentTime() -> String { Clock.timestamp() }

    /// A moment, given in seconds since the Unix epoch, as stores record it.
    public static func time(secondsSinceEpoch: Double) -> String {
        Clock.timestamp(secondsSinceEpoch: secondsSinceEpoch)
    }

    /// Creates an override.
    public init(value: Value, actor: String, time: String, version: UInt64 = 0, expiresAt: String? = nil) {
        self.value = value
        self.actor = actor
        self.time = time
        self.version = version
        self.expiresAt = expiresAt
    }
}

/// Everything a store holds at one version.
public struct StoreContents: Sendable {
    /// The overrides by key.
    public var entries: [String: StoredOverride]
    /// The store's version: the version of its latest write (0 for a store never written).
    public var version: UInt64

    /// Creates contents.
    public init(entries: [String: StoredOverride], version: UInt64) {
        self.entries = entries
        self.version = version
    }
}

/// One key's change in a write: a new value, or `nil` to remove the override.
public struct OverrideChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The new value; `nil` removes the override.
    public var value: Value?
    /// When the new value stops counting, in ISO 8601 UTC as ``StoredOverride/time`` (`nil`: never; ignored when
    /// the override is removed).
    public var expiresAt: String?

    /// Creates a change.
    public init(key: String, value: Value?, expiresAt: String? = nil) {
        self.key = key
        self.value = value
        self.expiresAt = value == nil ? nil : expiresAt
    }
}

/// The precondition of a compare-and-set write: the key's override is at a version.
public struct WriteCondition: Sendable, Hashable {
    /// The key whose version is checked.
    public var key: String
    /// The version the caller read: the override's ``StoredOverride/version``, or 0 for "no override".
    public var version: UInt64

    /// Creates a condition.
    public init(key: String, version: UInt64) {
        self.key = key
        self.version = version
    }

    /// Checks the condition against the key's current override at `time` (as stores record times); every store
    /// checks it here. An override expired by then counts as none: version 0, as every board shows it.
    ///
    /// - Throws: ``StoreError/conflict(key:expected:actual:)`` when the override is at another version.
    public func check(against stored: StoredOverride?, at time: String) throws(StoreError) {
        let current = StoredOverride.counting(stored, at: time)
        let actual = current?.version ?? 0
        // Version 0 asks for "no override"; an override written before versions existed is version 0 too, so it
        // matches only a condition that names it.
        if actual != version || (version == 0 && current != nil && actual != 0) {
            throw .conflict(key: key, expected: version, actual: actual)
        }
    }
}

/// What a write did.
public struct StoreWrite: Sendable {
    /// The store's version after the write (unchanged when nothing changed).
    public var version: UInt64
    /// The keys whose override changed, with the override now stored (`nil`: removed).
    public var changed: [String: StoredOverride?]
    /// The audit records appended.
    public var records: [AuditRecord]

    /// Creates a write result.
    public init(version: UInt64, changed: [String: StoredOverride?], records: [AuditRecord]) {
        self.version = version
        self.changed = changed
        self.records = records
    }
}

extension StoreWrite {
    /// What applying `changes` to the overrides that `current` reads writes at `version`: each changed key with its
    /// new override, and an audit record per change in order. Setting a key to the value and expiry it has is no
    /// change (the same value with another expiry is one); a key changed twice in one write is compared with its
    /// first change. Overrides record `attribution`'s actor, audit records all of it. Every store plans its writes
    /// here.
    public init(
        planning changes: [OverrideChange], by attribution: Attribution, time: String, version: UInt64,
        current: (String) -> StoredOverride?
    ) {
        var changed: [String: StoredOverride?] = [:]
        var records: [AuditRecord] = []
        for change in changes {
            // An expired override counts as none: a write records what was served before it (no override), and
            // removing one writes nothing.
            let old = changed[change.key] ?? StoredOverride.counting(current(change.key), at: time)
            guard old?.value != change.value || (change.value != nil && old?.expiresAt != change.expiresAt)
            else { continue }
            let new = change.value.map {
                StoredOverride(value: $0, actor: attribution.actor, time: time, version: version,
                               expiresAt: change.expiresAt)
            }
            changed[change.key] = .some(new)
            records.append(AuditRecord(time: time, attribution: attribution, key: change.key, old: old?.value,
                                       new: change.value, version: version, expiresAt: new?.expiresAt))
        }
        self.init(version: version, changed: changed, records: records)
    }
}

/// One audit record: who changed which key (verified or not, and whom the client claimed to be), when, from what
/// to what, and until when.
///
/// Stores hold only the records of writes. An override that expires writes nothing (replicas would record it once
/// each); ``withExpiries(_:now:)`` derives an `expired` entry from the record that set it, for
/// `switchboard log`, `GET /v1/audit` and the console's history.
public struct AuditRecord: Sendable, Hashable {
    /// What an entry of the history records.
    public enum Event: String, Sendable, Hashable {
        /// A write changed the key's override (the only event a store holds).
        case change
        /// The override set by an earlier record reached its ``AuditRecord/expiresAt`` and stopped counting:
        /// derived, never stored. JSON `"event": "expired"`.
        case expired
    }

    /// When, in ISO 8601 UTC.
    public var time: String
    /// Who: the verified person, or (when ``verified`` is `false`) the name the writer gave.
    public var actor: String
    /// The name the client sent when it was not ``actor`` (`nil`: none, or the same). JSON `"claimed_actor"`, only
    /// when present.
    public var claimedActor: String?
    /// Whether the server verified that ``actor`` made the write; `false` for the command line, the REPL, library
    /// writes, and records written before writes were attributed. JSON `"verified"`, always written.
    public var verified: Bool
    /// Which key.
    public var key: String
    /// The value before (`nil`: no override).
    public var old: Value?
    /// The value after (`nil`: the override was removed).
    public var new: Value?
    /// The store version of the write (0 when the store did not record one).
    public var version: UInt64
    /// When the value set stops counting, in ISO 8601 UTC (`nil`: never, or the override was removed). JSON
    /// `"expires_at"`.
    public var expiresAt: String?
    /// What the entry records: a write, or (derived by ``withExpiries(_:now:)``) an expiry.
    public var event: Event

    /// Creates a record; a `claimedActor` equal to `actor` is dropped, as in ``Attribution``.
    public init(
        time: String, actor: String, claimedActor: String? = nil, verified: Bool = false, key: String, old: Value?,
        new: Value?, version: UInt64 = 0, expiresAt: String? = nil, event: Event = .change
    ) {
        self.time = time
        self.actor = actor
        self.claimedActor = claimedActor == actor ? nil : claimedActor
        self.verified = verified
        self.key = key
        self.old = old
        self.new = new
        self.version = version
        self.expiresAt = expiresAt
        self.event = event
    }

    /// Creates a record of a write attributed to `attribution`.
    public init(
        time: String, attribution: Attribution, key: String, old: Value?, new: Value?, version: UInt64 = 0,
        expiresAt: String? = nil, event: Event = .change
    ) {
        self.init(time: time, actor: attribution.actor, claimedActor: attribution.claimedActor,
                  verified: attribution.verified, key: key, old: old, new: new, version: version,
                  expiresAt: expiresAt, event: event)
    }

    /// Who made the write: ``actor``, ``claimedActor`` and ``verified`` together.
    public var attribution: Attribution {
        Attribution(actor: actor, claimedActor: claimedActor, verified: verified)
    }

    /// The record as one JSON object (the audit log's line, and `log --json`'s element).
    public var json: String { Value.object(jsonFields).json }

    /// The fields of the record's JSON object.
    var jsonFields: [String: Value] {
        var object: [String: Value] = ["time": .string(time), "actor": .string(actor), "key": .string(key),
                                       "verified": .bool(verified)]
        if let claimedActor { object["claimed_actor"] = .string(claimedActor) }
        object["old"] = old ?? .null
        object["new"] = new ?? .null
        if version > 0 { object["version"] = .int(Int(clamping: version)) }
        if let expiresAt { object["expires_at"] = .string(expiresAt) }
        if event != .change { object["event"] = .string(event.rawValue) }
        return object
    }

    /// Reads a record from a JSON object; `nil` when it is not one. Records written before overrides could expire
    /// (without `expires_at`) read as they are; records written before writes were attributed (without
    /// `verified`) read as unverified.
    public init?(json value: Value) {
        guard case .object(let fields) = value, let key = fields["key"]?.stringValue else { return nil }
        self.init(time: fields["time"]?.stringValue ?? "", actor: fields["actor"]?.stringValue ?? "",
                  claimedActor: fields["claimed_actor"]?.stringValue, verified: fields["verified"] == .bool(true),
                  key: key,
                  old: fields["old"].flatMap { $0 == .null ? nil : $0 },
                  new: fields["new"].flatMap { $0 == .null ? nil : $0 },
                  version: fields["version"].flatMap { $0.intValue }.map { UInt64(max(0, $0)) } ?? 0,
                  expiresAt: fields["expires_at"]?.stringValue,
                  event: fields["event"]?.stringValue.flatMap(Event.init(rawValue:)) ?? .change)
    }
}

/// A store problem: what went wrong, with what to do about it.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: Sendable, Hashable {
        /// The store's contents do not parse; it is left as it is.
        case corrupt
        /// The store could not be read or written.
        case unavailable
        /// A compare-and-set write found the key at another version than expected.
        case conflict(key: String, expected: UInt64, actual: UInt64)
    }

    /// What kind of problem.
    public var kind: Kind
    /// What went wrong, with the path or host.
    public var message: String
    /// What to do about it.
    public var hint: String?

    /// Creates an error.
    public init(_ kind: Kind = .unavailable, message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// The message and the hint.
    public var description: String {
        hint.map { "\(message)\n  hint: \($0)" } ?? message
    }

    /// The error as a diagnostic without a place, for faces that render diagnostics.
    package var diagnostic: Diagnostic { .error(at: nil, message, hint: hint) }

    /// The error of a compare-and-set write that lost a race.
    public static func conflict(key: String, expected: UInt64, actual: UInt64) -> StoreError {
        StoreError(.conflict(key: key, expected: expected, actual: actual),
                   message: "the override of \(key) is at version \(actual), not \(expected): someone else changed it",
                   hint: "read it again, then retry with its current version")
    }
}
