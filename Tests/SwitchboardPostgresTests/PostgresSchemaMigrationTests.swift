import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// A database of schema version 1, written by hand as Switchboard 1 created it, opened by this code: migrated to
/// the current version (2 added `expires_at` on overrides and audit rows) with every row intact, and writable with
/// expiries.
///
/// The schema is the whole database's, so the test starts a cluster of its own rather than touching the one the
/// other tests share.
@Suite(.enabled(if: TestCluster.serverIsInstalled, TestCluster.skipNote))
struct PostgresSchemaMigrationTests {
    static let versionOne = """
        CREATE TABLE switchboard_schema (version integer NOT NULL);
        INSERT INTO switchboard_schema (version) VALUES (1);
        CREATE TABLE switchboard_versions (scope text PRIMARY KEY, version bigint NOT NULL);
        CREATE TABLE switchboard_overrides (
            scope text NOT NULL, key text NOT NULL, value text NOT NULL, actor text NOT NULL, time text NOT NULL,
            version bigint NOT NULL, PRIMARY KEY (scope, key));
        CREATE TABLE switchboard_audit (
            id bigserial PRIMARY KEY, scope text NOT NULL, time text NOT NULL, actor text NOT NULL, key text NOT NULL,
            old text, new text, version bigint NOT NULL);
        CREATE INDEX switchboard_audit_scope_version ON switchboard_audit (scope, version);
        INSERT INTO switchboard_versions VALUES ('prod', 2);
        INSERT INTO switchboard_overrides VALUES ('prod', 'limit', '7', 'alice', '2026-11-20T10:00:00.000Z', 1);
        INSERT INTO switchboard_overrides VALUES ('prod', 'motto', '"hi"', 'bob', '2026-11-20T10:00:01.000Z', 2);
        INSERT INTO switchboard_audit (scope, time, actor, key, old, new, version)
            VALUES ('prod', '2026-11-20T10:00:00.000Z', 'alice', 'limit', NULL, '7', 1);
        INSERT INTO switchboard_audit (scope, time, actor, key, old, new, version)
            VALUES ('prod', '2026-11-20T10:00:01.000Z', 'bob', 'motto', NULL, '"hi"', 2);
        """

    /// Runs SQL with `psql` against the URL.
    static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["psql", url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql],
                                    timeout: .seconds(60))
        guard result.status == 0 else { throw StoreError(message: "psql failed: \(result.stderr)") }
        return result.stdout
    }

    @Test func aVersionOneDatabaseIsMigratedWithItsDataIntact() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        _ = try Self.psql(cluster.url, Self.versionOne)

        let store = try PostgresStore(url: cluster.url, scope: "prod")
        #expect(try Self.psql(cluster.url, "SELECT version FROM switchboard_schema") == "3\n")
        let contents = try store.read()
        #expect(contents.version == 2)
        #expect(contents.entries.mapValues(\.value) == ["limit": 7, "motto": "hi"])
        #expect(contents.entries["limit"]?.actor == "alice")
        #expect(contents.entries.values.allSatisfy { $0.expiresAt == nil })
        #expect(try store.auditLog(limit: 10).map(\.key) == ["limit", "motto"])

        let expiry = "2026-12-01T09:00:00.000Z"
        _ = try store.apply([OverrideChange(key: "limit", value: 8, expiresAt: expiry)], by: .unverified("carol"),
                            condition: WriteCondition(key: "limit", version: 1))
        #expect(try store.read().entries["limit"]?.expiresAt == expiry)
        #expect(try store.auditLog(limit: 10).map(\.expiresAt) == [nil, nil, expiry])

        // Opening it again finds the current version and changes nothing.
        let again = try PostgresStore(url: cluster.url, scope: "prod")
        #expect(try again.read().entries["limit"]?.value == 8)
        #expect(try Self.psql(cluster.url, "SELECT count(*) FROM switchboard_schema") == "1\n")
    }
}
