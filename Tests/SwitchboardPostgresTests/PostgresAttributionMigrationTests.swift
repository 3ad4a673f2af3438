import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// A database of schema version 2, written by hand as the previous release left it, opened by this code: migrated
/// in place to version 3 (`claimed_actor` and `verified` on audit rows), its rows intact and read as unverified,
/// and new writes storing both.
///
/// The schema is the whole database's, so the test starts a cluster of its own rather than touching the one the
/// other tests share.
@Suite(.enabled(if: TestCluster.serverIsInstalled, TestCluster.skipNote))
struct PostgresAttributionMigrationTests {
    static let versionTwo = """
        CREATE TABLE switchboard_schema (version integer NOT NULL);
        INSERT INTO switchboard_schema (version) VALUES (2);
        CREATE TABLE switchboard_versions (scope text PRIMARY KEY, version bigint NOT NULL);
        CREATE TABLE switchboard_overrides (
            scope text NOT NULL, key text NOT NULL, value text NOT NULL, actor text NOT NULL, time text NOT NULL,
            version bigint NOT NULL, expires_at text, PRIMARY KEY (scope, key));
        CREATE TABLE switchboard_audit (
            id bigserial PRIMARY KEY, scope text NOT NULL, time text NOT NULL, actor text NOT NULL, key text NOT NULL,
            old text, new text, version bigint NOT NULL, expires_at text);
        CREATE INDEX switchboard_audit_scope_version ON switchboard_audit (scope, version);
        INSERT INTO switchboard_versions VALUES ('prod', 2);
        INSERT INTO switchboard_overrides VALUES ('prod', 'limit', '7', 'alice', '2026-11-20T10:00:00.000Z', 1,
            '2099-01-01T00:00:00.000Z');
        INSERT INTO switchboard_overrides VALUES ('prod', 'motto', '"hi"', 'bob', '2026-11-20T10:00:01.000Z', 2,
            NULL);
        INSERT INTO switchboard_audit (scope, time, actor, key, old, new, version, expires_at)
            VALUES ('prod', '2026-11-20T10:00:00.000Z', 'alice', 'limit', NULL, '7', 1, '2099-01-01T00:00:00.000Z');
        INSERT INTO switchboard_audit (scope, time, actor, key, old, new, version, expires_at)
            VALUES ('prod', '2026-11-20T10:00:01.000Z', 'bob', 'motto', NULL, '"hi"', 2, NULL);
        """

    @Test func aVersionTwoDatabaseIsMigratedAndItsRowsReadAsUnverified() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        _ = try PostgresSchemaMigrationTests.psql(cluster.url, Self.versionTwo)

        let store = try PostgresStore(url: cluster.url, scope: "prod")
        #expect(try PostgresSchemaMigrationTests.psql(cluster.url, "SELECT version FROM switchboard_schema") == "3\n")
        let contents = try store.read()
        #expect(contents.version == 2)
        #expect(contents.entries.mapValues(\.value) == ["limit": 7, "motto": "hi"])
        #expect(contents.entries["limit"]?.expiresAt == "2099-01-01T00:00:00.000Z")
        let old = try store.auditLog(limit: 10)
        #expect(old.map(\.attribution) == [.unverified("alice"), .unverified("bob")])
        #expect(old.map(\.expiresAt) == ["2099-01-01T00:00:00.000Z", nil])

        let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)
        _ = try store.apply([OverrideChange(key: "limit", value: 8)], by: verified,
                            condition: WriteCondition(key: "limit", version: 1))
        #expect(try store.read().entries["limit"]?.actor == "ana")
        #expect(try store.auditLog(limit: 10).map(\.attribution)
                    == [.unverified("alice"), .unverified("bob"), verified])
        #expect(try PostgresSchemaMigrationTests.psql(cluster.url, """
            SELECT actor, coalesce(claimed_actor, '-'), verified FROM switchboard_audit ORDER BY id
            """) == "alice|-|f\nbob|-|f\nana|mallory|t\n")

        // Opening it again finds version 3 and changes nothing.
        let again = try PostgresStore(url: cluster.url, scope: "prod")
        #expect(try again.auditLog(limit: 10).count == 3)
        #expect(try PostgresSchemaMigrationTests.psql(cluster.url, "SELECT count(*) FROM switchboard_schema") == "1\n")
    }
}
