public import Foundation
import Locking
public import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
public import Switchboard
import Synchronization

/// A `RuntimeStore` in PostgreSQL, shared by every replica: overrides, audit log and versions in tables that
/// Switchboard creates and migrates itself, and `NOTIFY` on every write so that every replica that `LISTEN`s
/// catches up at once.
///
/// - One database serves several projects or environments: every row carries a scope (by default the
///   environment name).
/// - A write is one transaction: it locks the scope's version row (so writers of a scope take turns), checks the
///   compare-and-set condition, upserts or deletes the overrides, inserts the audit rows, bumps the version and
///   notifies. A failed write changes nothing.
/// - Every statement is parameterised; values are stored as their exact JSON text.
/// - When the database cannot be reached, reads and writes throw `StoreError` (kind `unavailable`) naming the
///   host and database (never the password); the board keeps serving what it had. The connection is made again
///   at the next use, and the watch reconnects with backoff (at most 2 s apart) and then reads everything.
public final class PostgresStore: RuntimeStore {
    /// Where the database is, parsed from a `postgres://` URL.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// The host.
        public var host: String
        /// The port.
        public var port: Int
        /// The user.
        public var user: String
        /// The password (from the URL, `PGPASSWORD`, or a file).
        public var password: String?
        /// The database.
        public var database: String
        /// Whether TLS is required (`sslmode=require`, `verify-ca`, `verify-full`).
        public var requiresTLS: Bool

        /// Parses `postgres://user:password@host:port/database?sslmode=…`. The password may instead come from
        /// `PGPASSWORD` in `environment`, or from the file `passwordFile` (its first line).
        public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                    passwordFile: String? = nil) throws(StoreError) {
            guard let components = URLComponents(string: url),
                  components.scheme == "postgres" || components.scheme == "postgresql",
                  let host = components.host, !host.isEmpty
            else {
                throw StoreError(.unavailable, message: "not a PostgreSQL URL: \(Self.redacted(url))",
                                 hint: "write postgres://user:password@host:port/database (a file store's path goes "
                                     + "in --state or $SWITCHBOARD_STATE)")
            }
            self.host = host
            port = components.port ?? 5432
            user = components.user ?? environment["PGUSER"] ?? "postgres"
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            database = path.isEmpty ? user : path
            password = components.password ?? environment["PGPASSWORD"]
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw StoreError(.unavailable, message: "cannot read the password file \(passwordFile)")
                }
                password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
            }
            let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
            guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(mode) else {
                throw StoreError(.unavailable, message: "unknown sslmode '\(mode)' in \(Self.redacted(url))",
                                 hint: "sslmode is disable, prefer, require, verify-ca or verify-full")
            }
            requiresTLS = ["require", "verify-ca", "verify-full"].contains(mode)
        }

        /// `postgres://user@host:port/database`: the endpoint without its password, for messages.
        public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

        /// A URL with its password replaced by `***`.
        public static func redacted(_ url: String) -> String {
            guard var components = URLComponents(string: url), components.password != nil else { return url }
            components.password = "***"
            return components.string ?? "(a URL)"
        }
    }

    /// The schema version this code writes; older schemas are migrated at start. Version 2 adds `expires_at` to
    /// overrides and audit rows; version 3 adds `claimed_actor` and `verified` to audit rows.
    static let schemaVersion = 3
    /// The channel every write notifies, with `scope:version` as the payload.
    static let channel = "switchboard_overrides"
    /// The longest wait, in seconds, between the watch's attempts to reconnect (before jitter).
    static let maximumBackoff = 2.0

    /// Where the database is.
    public let endpoint: Endpoint
    /// The scope of this store's rows: one project or environment.
    public let scope: String
    /// How often the watch reads the store even without a notification, to catch one that was lost.
    public let pollInterval: Duration
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    private let connection = Locked<PostgresConnection?>(nil)
    /// Set when the watch reconnects: the next `changes(since:)` answers `nil`, so the board reads everything
    /// (notifications are not kept while a listener is away).
    private let readEverything = Atomic<Bool>(false)

    /// `postgres`.
    public var kind: String { "postgres" }
    /// The endpoint, without its password.
    public var location: String { endpoint.description }

    /// Connects, creates or migrates the schema, and checks that the database answers.
    ///
    /// - Throws: `StoreError` when the URL is bad, the server cannot be reached, the password is wrong or the
    ///   database is missing; the message names the host and database, never the password.
    public init(
        endpoint: Endpoint, scope: String, pollInterval: Duration = .seconds(30),
        logger: Logger = Logger(label: "switchboard.postgres")
    ) throws(StoreError) {
        self.endpoint = endpoint
        self.scope = scope
        self.pollInterval = pollInterval
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try migrate()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    /// Opens a store from a URL (see ``Endpoint/init(url:environment:passwordFile:)``).
    public convenience init(url: String, scope: String, passwordFile: String? = nil) throws(StoreError) {
        try self.init(endpoint: Endpoint(url: url, passwordFile: passwordFile), scope: scope)
    }

    deinit {
        // A connection must be closed before it is released.
        if let connection = connection.withLock({ $0 }) { try? connection.close().wait() }
        group.shutdownGracefully { _ in }
    }

    // MARK: - Connections

    private func connect() throws(StoreError) -> PostgresConnection {
        let tls: PostgresConnection.Configuration.TLS
        if endpoint.requiresTLS {
            do {
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            } catch {
                throw StoreError(.unavailable, message: "cannot set up TLS for \(endpoint): \(error)")
            }
        } else {
            tls = .disable
        }
        let configuration = PostgresConnection.Configuration(
            host: endpoint.host, port: endpoint.port, username: endpoint.user, password: endpoint.password,
            database: endpoint.database, tls: tls)
        do {
            return try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1,
                                                  logger: logger).wait()
        } catch {
            throw problem(error, doing: "connect to")
        }
    }

    /// Runs `body` with the shared connection, connecting first when there is none; a connection that failed is
    /// dropped, so the next call connects again. One call at a time: a transaction's statements never interleave
    /// with another caller's on the same connection.
    private func withConnection<T: Sendable>(
        _ body: (PostgresConnection) throws -> T
    ) throws(StoreError) -> T {
        try connection.withLock { (slot: inout PostgresConnection?) throws(StoreError) -> T in
            let current: PostgresConnection
            if let existing = slot, !existing.isClosed {
                current = existing
            } else {
                current = try connect()
                slot = current
            }
            do {
                return try body(current)
            } catch let error as StoreError {
                throw error
            } catch {
                if current.isClosed || (error as? PSQLError)?.code != .server {
                    slot = nil
                    try? current.close().wait()
                }
                throw problem(error, doing: "use")
            }
        }
    }

    /// The error to report: what the server said, or why it could not be reached, with the endpoint.
    private func problem(_ error: any Error, doing action: String) -> StoreError {
        if let error = error as? PSQLError, error.code == .server {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            let state = error.serverInfo?[.sqlState]
            let hint: String? = switch state {
            case "28P01", "28000": "check the user and password (the URL, PGPASSWORD or the password file)"
            case "3D000": "create the database, or check its name in the URL"
            default: nil
            }
            return StoreError(.unavailable, message: "PostgreSQL at \(endpoint) refused: \(message)", hint: hint)
        }
        let detail = (error as? PSQLError).flatMap { $0.underlying.map { "\($0)" } } ?? "\(error)"
        return StoreError(.unavailable, message: "cannot \(action) PostgreSQL at \(endpoint): \(detail)",
                          // What a board does meanwhile (it keeps the last good overrides) is the board's to say:
                          // this error is also what a one-shot command such as `switchboard set` prints.
                          hint: "check that the server is running and reachable")
    }

    private func run(_ query: PostgresQuery, on connection: PostgresConnection) throws -> PostgresQueryResult {
        try connection.query(query, logger: logger).wait()
    }

    // MARK: - Schema

    /// Creates or migrates the schema. Replicas starting at once take turns on an advisory lock.
    private func migrate() throws(StoreError) {
        try withConnection { connection in
            _ = try run("BEGIN", on: connection)
            do {
                _ = try run("SELECT pg_advisory_xact_lock(\(Int64(0x5357_4942)))", on: connection)
                _ = try run("""
                    CREATE TABLE IF NOT EXISTS switchboard_schema (version integer NOT NULL)
                    """, on: connection)
                let rows = try run("SELECT version FROM switchboard_schema", on: connection)
                let current = try rows.first?.decode(Int.self) ?? 0
                if current < Self.schemaVersion {
                    // Each version's statements in turn: a new database runs them all, an older one the rest.
                    if current < 1 {
                        for statement in Self.schema {
                            _ = try run(PostgresQuery(unsafeSQL: statement), on: connection)
                        }
                    }
                    if current < 2 {
                        for statement in Self.expiryMigration {
                            _ = try run(PostgresQuery(unsafeSQL: statement), on: connection)
                        }
                    }
                    if current < 3 {
                        for statement in Self.attributionMigration {
                            _ = try run(PostgresQuery(unsafeSQL: statement), on: connection)
                        }
                    }
                    _ = try run("DELETE FROM switchboard_schema", on: connection)
                    _ = try run("INSERT INTO switchboard_schema (version) VALUES (\(Self.schemaVersion))",
                                on: connection)
                }
                _ = try run("COMMIT", on: connection)
            } catch {
                _ = try? run("ROLLBACK", on: connection)
                throw error
            }
        }
    }

    /// The tables, as of schema version 1.
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS switchboard_versions (
            scope text PRIMARY KEY, version bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_overrides (
            scope text NOT NULL, key text NOT NULL, value text NOT NULL, actor text NOT NULL, time text NOT NULL,
            version bigint NOT NULL, PRIMARY KEY (scope, key))
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_audit (
            id bigserial PRIMARY KEY, scope text NOT NULL, time text NOT NULL, actor text NOT NULL, key text NOT NULL,
            old text, new text, version bigint NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS switchboard_audit_scope_version ON switchboard_audit (scope, version)",
    ]

    /// From schema version 1 to 2: when an override stops counting (ISO 8601 UTC, as `time`; NULL: never), on the
    /// override and on the audit row that set it. Existing rows never expire.
    static let expiryMigration = [
        "ALTER TABLE switchboard_overrides ADD COLUMN IF NOT EXISTS expires_at text",
        "ALTER TABLE switchboard_audit ADD COLUMN IF NOT EXISTS expires_at text",
    ]

    /// From schema version 2 to 3: the name the client claimed when it was not the recorded actor (NULL: none),
    /// and whether the server verified the actor, on each audit row. Existing rows read as unverified.
    static let attributionMigration = [
        "ALTER TABLE switchboard_audit ADD COLUMN IF NOT EXISTS claimed_actor text",
        "ALTER TABLE switchboard_audit ADD COLUMN IF NOT EXISTS verified boolean NOT NULL DEFAULT false",
    ]

    // MARK: - RuntimeStore

    /// Every override of the scope with the scope's version, read in one snapshot of the database.
    public func read() throws(StoreError) -> StoreContents {
        try withConnection { connection in
            _ = try run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            defer { _ = try? run("COMMIT", on: connection) }
            let version = try run("SELECT version FROM switchboard_versions WHERE scope = \(scope)", on: connection)
                .first?.decode(Int64.self) ?? 0
            var entries: [String: StoredOverride] = [:]
            let rows = try run("""
                SELECT key, value, actor, time, version, expires_at FROM switchboard_overrides WHERE scope = \(scope)
                """, on: connection)
            for row in rows {
                let (key, json, actor, time, written, expiresAt) = try row.decode(
                    (String, String, String, String, Int64, String?).self)
                entries[key] = StoredOverride(value: try Value(json: json), actor: actor, time: time,
                                              version: UInt64(written), expiresAt: expiresAt)
            }
            return StoreContents(entries: entries, version: UInt64(version))
        }
    }

    /// The changes after `version`, from the audit rows of later writes.
    public func changes(since version: UInt64) throws(StoreError) -> StoreDelta? {
        if readEverything.exchange(false, ordering: .acquiringAndReleasing) { return nil }
        return try withConnection { connection in
            _ = try run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            defer { _ = try? run("COMMIT", on: connection) }
            let current = try run("SELECT version FROM switchboard_versions WHERE scope = \(scope)", on: connection)
                .first?.decode(Int64.self) ?? 0
            var changed: [String: StoredOverride?] = [:]
            let rows = try run("""
                SELECT key, new, actor, time, version, expires_at FROM switchboard_audit
                WHERE scope = \(scope) AND version > \(Int64(version)) ORDER BY id
                """, on: connection)
            for row in rows {
                let (key, json, actor, time, written, expiresAt) = try row.decode(
                    (String, String?, String, String, Int64, String?).self)
                changed[key] = .some(try json.map {
                    StoredOverride(value: try Value(json: $0), actor: actor, time: time, version: UInt64(written),
                                   expiresAt: expiresAt)
                })
            }
            return StoreDelta(version: UInt64(current), changed: changed)
        }
    }

    /// Applies changes in one transaction: all of them with their audit rows and a notification, or nothing.
    public func apply(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        let time = StoredOverride.currentTime()
        let actor = attribution.actor
        return try withConnection { connection in
            _ = try run("BEGIN", on: connection)
            do {
                _ = try run("""
                    INSERT INTO switchboard_versions (scope, version) VALUES (\(scope), 0) ON CONFLICT DO NOTHING
                    """, on: connection)
                let before = try run("""
                    SELECT version FROM switchboard_versions WHERE scope = \(scope) FOR UPDATE
                    """, on: connection).first?.decode(Int64.self) ?? 0
                var current: [String: StoredOverride] = [:]
                let keys = changes.map(\.key) + (condition.map { [$0.key] } ?? [])
                let rows = try run("""
                    SELECT key, value, actor, time, version, expires_at FROM switchboard_overrides
                    WHERE scope = \(scope) AND key = ANY(\(keys))
                    """, on: connection)
                for row in rows {
                    let (key, json, actor, time, written, expiresAt) = try row.decode(
                        (String, String, String, String, Int64, String?).self)
                    current[key] = StoredOverride(value: try Value(json: json), actor: actor, time: time,
                                                  version: UInt64(written), expiresAt: expiresAt)
                }
                if let condition { try condition.check(against: current[condition.key], at: time) }
                let plan = StoreWrite(planning: changes, by: attribution, time: time, version: UInt64(before) + 1,
                                      current: { current[$0] })
                let version = Int64(plan.version)
                for record in plan.records {
                    if let value = record.new {
                        _ = try run("""
                            INSERT INTO switchboard_overrides (scope, key, value, actor, time, version, expires_at)
                            VALUES (\(scope), \(record.key), \(value.json), \(actor), \(time), \(version),
                                    \(record.expiresAt))
                            ON CONFLICT (scope, key) DO UPDATE SET value = EXCLUDED.value, actor = EXCLUDED.actor,
                                time = EXCLUDED.time, version = EXCLUDED.version, expires_at = EXCLUDED.expires_at
                            """, on: connection)
                    } else {
                        _ = try run("""
                            DELETE FROM switchboard_overrides WHERE scope = \(scope) AND key = \(record.key)
                            """, on: connection)
                    }
                    _ = try run("""
                        INSERT INTO switchboard_audit
                            (scope, time, actor, claimed_actor, verified, key, old, new, version, expires_at)
                        VALUES (\(scope), \(time), \(actor), \(record.claimedActor), \(record.verified), \(record.key),
                                \(record.old?.json), \(record.new?.json), \(version), \(record.expiresAt))
                        """, on: connection)
                }
                guard !plan.records.isEmpty else {
                    _ = try run("ROLLBACK", on: connection)
                    return StoreWrite(version: UInt64(before), changed: [:], records: [])
                }
                _ = try run("""
                    UPDATE switchboard_versions SET version = \(version) WHERE scope = \(scope)
                    """, on: connection)
                let payload = "\(scope):\(version)"
                _ = try run("SELECT pg_notify(\(Self.channel), \(payload))", on: connection)
                _ = try run("COMMIT", on: connection)
                return plan
            } catch {
                _ = try? run("ROLLBACK", on: connection)
                throw error
            }
        }
    }

    /// Fills the scope, which must be empty, with an export in one transaction, keeping actors, times and
    /// versions; replicas are notified.
    public func importing(_ export: StoreExport) throws(StoreError) {
        try withConnection { connection in
            _ = try run("BEGIN", on: connection)
            do {
                _ = try run("""
                    INSERT INTO switchboard_versions (scope, version) VALUES (\(scope), 0) ON CONFLICT DO NOTHING
                    """, on: connection)
                _ = try run("SELECT version FROM switchboard_versions WHERE scope = \(scope) FOR UPDATE",
                            on: connection)
                let overrides = try run("SELECT count(*) FROM switchboard_overrides WHERE scope = \(scope)",
                                        on: connection).first?.decode(Int64.self) ?? 0
                let audit = try run("SELECT count(*) FROM switchboard_audit WHERE scope = \(scope)",
                                    on: connection).first?.decode(Int64.self) ?? 0
                guard overrides == 0, audit == 0 else {
                    throw StoreError(message: "the scope '\(scope)' at \(endpoint) is not empty",
                                     hint: "import into an empty scope (--scope), or remove its rows first")
                }
                for key in export.contents.entries.keys.sorted() {
                    let entry = export.contents.entries[key]!
                    _ = try run("""
                        INSERT INTO switchboard_overrides (scope, key, value, actor, time, version, expires_at)
                        VALUES (\(scope), \(key), \(entry.value.json), \(entry.actor), \(entry.time),
                                \(Int64(entry.version)), \(entry.expiresAt))
                        """, on: connection)
                }
                for record in export.audit {
                    _ = try run("""
                        INSERT INTO switchboard_audit
                            (scope, time, actor, claimed_actor, verified, key, old, new, version, expires_at)
                        VALUES (\(scope), \(record.time), \(record.actor), \(record.claimedActor), \(record.verified),
                                \(record.key), \(record.old?.json), \(record.new?.json), \(Int64(record.version)),
                                \(record.expiresAt))
                        """, on: connection)
                }
                let version = Int64(export.contents.version)
                _ = try run("UPDATE switchboard_versions SET version = \(version) WHERE scope = \(scope)",
                            on: connection)
                let payload = "\(scope):\(version)"
                _ = try run("SELECT pg_notify(\(Self.channel), \(payload))", on: connection)
                _ = try run("COMMIT", on: connection)
            } catch {
                _ = try? run("ROLLBACK", on: connection)
                throw error
            }
        }
        readEverything.store(true, ordering: .releasing)
    }

    /// The last `limit` audit records of the scope, oldest first.
    public func auditLog(limit: Int) throws(StoreError) -> [AuditRecord] {
        try withConnection { connection in try lastRecords(limit, on: connection) }
    }

    /// The last `limit` records and, before them, each key's last older record when it set an override that
    /// expires (only those can expire among them), in one snapshot.
    public func auditLogWithPredecessors(
        limit: Int
    ) throws(StoreError) -> (predecessors: [AuditRecord], last: [AuditRecord]) {
        try withConnection { connection in
            _ = try run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            do {
                let last = try lastRecords(limit, on: connection)
                guard !last.isEmpty else {
                    _ = try run("COMMIT", on: connection)
                    return ([], [])
                }
                // Each key's last record before the window, whatever it did; then only those that set an expiring
                // override.
                let predecessors = try records(run("""
                    SELECT time, actor, claimed_actor, verified, key, old, new, version, expires_at FROM (
                        SELECT DISTINCT ON (key) id, time, actor, claimed_actor, verified, key, old, new, version,
                            expires_at
                        FROM switchboard_audit
                        WHERE scope = \(scope) AND id < (
                            SELECT min(id) FROM (
                                SELECT id FROM switchboard_audit WHERE scope = \(scope) ORDER BY id DESC
                                LIMIT \(Int64(last.count))
                            ) AS window_ids)
                        ORDER BY key, id DESC) AS earlier
                    WHERE new IS NOT NULL AND expires_at IS NOT NULL
                    ORDER BY id
                    """, on: connection))
                _ = try run("COMMIT", on: connection)
                return (predecessors, last)
            } catch {
                _ = try? run("ROLLBACK", on: connection)
                throw error
            }
        }
    }

    /// The scope's last `limit` audit records, oldest first.
    private func lastRecords(_ limit: Int, on connection: PostgresConnection) throws -> [AuditRecord] {
        try records(run("""
            SELECT time, actor, claimed_actor, verified, key, old, new, version, expires_at FROM (
                SELECT id, time, actor, claimed_actor, verified, key, old, new, version, expires_at
                FROM switchboard_audit
                WHERE scope = \(scope) ORDER BY id DESC LIMIT \(Int64(min(limit, Int(Int64.max))))) AS last
            ORDER BY id
            """, on: connection))
    }

    /// The audit records of rows selected as `auditLog(limit:)` selects them.
    private func records(_ rows: PostgresQueryResult) throws -> [AuditRecord] {
        try rows.map { row in
            let (time, actor, claimedActor, verified, key, old, new, version, expiresAt) = try row.decode(
                (String, String, String?, Bool, String, String?, String?, Int64, String?).self)
            return AuditRecord(time: time, actor: actor, claimedActor: claimedActor, verified: verified, key: key,
                               old: try old.map { try Value(json: $0) },
                               new: try new.map { try Value(json: $0) }, version: UInt64(version),
                               expiresAt: expiresAt)
        }
    }

    /// `LISTEN`s on a connection of its own and calls `handler` on every notification of this scope, after every
    /// (re)connection (having first asked the board to read everything), and every ``pollInterval`` in case a
    /// notification was lost. A lost connection is made again with backoff and jitter. `interval` is not needed.
    public func watch(every interval: Duration, _ handler: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let stopped = Atomic<Bool>(false)
        let queue = DispatchQueue(label: "switchboard.postgres.watch")
        // Handlers run on a queue of their own: they read the store, which must not block the connection's loop.
        let notify: @Sendable () -> Void = { queue.async { handler() } }
        let task = Task.detached { [weak self, scope] in
            var backoff = 0.1
            while !Task.isCancelled {
                guard let self else { return }
                do {
                    let listener = try self.connect()
                    let context = listener.addListener(channel: Self.channel) { _, message in
                        if message.payload.hasPrefix(scope + ":") { notify() }
                    }
                    do {
                        _ = try await listener.query("LISTEN \(unescaped: Self.channel)", logger: self.logger).get()
                    } catch {
                        // A connection must be closed before it is released, here as in `deinit`.
                        context.stop()
                        try? await listener.close()
                        throw error
                    }
                    backoff = 0.1
                    self.readEverything.store(true, ordering: .releasing)
                    notify()
                    // Poll slowly while connected; a closed connection ends the wait within a second.
                    let clock = ContinuousClock()
                    var lastPoll = clock.now
                    while !Task.isCancelled && !listener.isClosed {
                        try? await Task.sleep(for: min(self.pollInterval, .seconds(1)))
                        if clock.now - lastPoll >= self.pollInterval {
                            lastPoll = clock.now
                            notify()
                        }
                    }
                    context.stop()
                    try? await listener.close()
                } catch {
                    self.logger.warning("cannot listen to PostgreSQL; retrying",
                                        metadata: ["endpoint": "\(self.endpoint)", "error": "\(error)"])
                    notify()
                }
                if Task.isCancelled { return }
                let jitter = Double.random(in: 0.8...1.2)
                try? await Task.sleep(for: .seconds(backoff * jitter))
                // The cap bounds how long a replica serves stale values after the database returns: at most one
                // wait (2.4 s with jitter), however long the outage was.
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
        return ChangeSubscription {
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            task.cancel()
        }
    }
}
