import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresStoreTests {
    @Test func writesReadsAndAudits() throws {
        let store = try TestDatabase.store()
        #expect(try store.read().version == 0)
        let write = try store.apply([OverrideChange(key: "limit", value: 7)], by: .unverified("alice"), condition: nil)
        #expect(write.version == 1)
        #expect(write.records.map(\.key) == ["limit"])
        let contents = try store.read()
        #expect(contents.version == 1)
        #expect(contents.entries["limit"]?.value == 7)
        #expect(contents.entries["limit"]?.actor == "alice")
        #expect(contents.entries["limit"]?.version == 1)
        _ = try store.apply([OverrideChange(key: "limit", value: nil)], by: .unverified("bob"), condition: nil)
        #expect(try store.read().entries.isEmpty)
        let log = try store.auditLog(limit: 10)
        #expect(log.map(\.actor) == ["alice", "bob"])
        #expect(log.map(\.new) == [7, nil])
        #expect(log.map(\.old) == [nil, 7])
        let delta = try #require(try store.changes(since: 1))
        #expect(delta.version == 2)
        #expect(delta.changed.count == 1)
        #expect(delta.changed["limit"] == .some(nil))
    }

    // As the file store: the last entries keep an expiry whose override was set before the last records, from
    // each key's last earlier record, which the store reads in the same snapshot.
    @Test func theHistorysLastEntriesKeepAnEarlierOverridesExpiry() throws {
        let store = try TestDatabase.store()
        let start = Date().timeIntervalSince1970
        let change = OverrideChange(key: "debug", value: true,
                                    expiresAt: StoredOverride.time(secondsSinceEpoch: start + 60))
        _ = try store.apply([change], by: .unverified("ana"), condition: nil)
        for limit in 1...3 {
            _ = try store.apply([OverrideChange(key: "limit", value: .int(limit))], by: .unverified("bob"),
                                condition: nil)
        }
        let later = start + 120
        #expect(try AuditRecord.history(of: store, limit: 1, now: later).map(\.event) == [.expired])
        let (predecessors, records) = try store.auditLogWithPredecessors(limit: 2)
        #expect(predecessors.map(\.key) == ["debug"], "only an override that expires can expire among them")
        #expect(records.map(\.new) == [2, 3])
        #expect(try AuditRecord.history(of: store, limit: 10, now: later).count == 5)
    }

    @Test func craftedValuesComeBackExactlyAndChangeNothingElse() throws {
        let store = try TestDatabase.store()
        _ = try store.apply([OverrideChange(key: "other", value: "untouched")], by: .unverified("a"), condition: nil)
        let hostile: [Value] = [
            "'; DROP TABLE switchboard_overrides; --", "quote ' and \" and \\ and ;", "nul \u{0} inside",
            .string(String(repeating: "long ", count: 20_000)), ["list", 1, ["nested": "'"]], 1.5, -0.0,
        ]
        for (index, value) in hostile.enumerated() {
            let key = "key'; --\(index)"
            _ = try store.apply([OverrideChange(key: key, value: value)], by: .unverified("robert'); --"),
                                condition: nil)
            let stored = try #require(try store.read().entries[key])
            #expect(stored.value == value)
            #expect(stored.actor == "robert'); --")
        }
        #expect(try store.read().entries["other"]?.value == "untouched")
        #expect(try store.read().entries.count == hostile.count + 1)
    }

    @Test func compareAndSetHasOneWinner() throws {
        let store = try TestDatabase.store()
        let first = try store.apply([OverrideChange(key: "limit", value: 1)], by: .unverified("a"),
                                    condition: WriteCondition(key: "limit", version: 0))
        #expect(throws: StoreError.self) {
            try store.apply([OverrideChange(key: "limit", value: 2)], by: .unverified("b"),
                            condition: WriteCondition(key: "limit", version: 0))
        }
        _ = try store.apply([OverrideChange(key: "limit", value: 3)], by: .unverified("c"),
                            condition: WriteCondition(key: "limit", version: first.version))
        #expect(try store.read().entries["limit"]?.value == 3)
        #expect(try store.auditLog(limit: 10).count == 2)
    }

    @Test func racingWritersFromTwoConnectionsHaveOneWinner() async throws {
        let scope = "race-\(UUID().uuidString)"
        let stores = try (0..<4).map { _ in try TestDatabase.store(scope: scope) }
        let wins = await withTaskGroup(of: Bool.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    (try? store.apply([OverrideChange(key: "limit", value: .int(index))], by: .unverified("w\(index)"),
                                      condition: WriteCondition(key: "limit", version: 0))) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try stores[0].auditLog(limit: 10).count == 1)
    }

    @Test func scopesDoNotSeeEachOther() throws {
        let a = try TestDatabase.store()
        let b = try TestDatabase.store()
        _ = try a.apply([OverrideChange(key: "limit", value: 1)], by: .unverified("a"), condition: nil)
        #expect(try b.read().entries.isEmpty)
        #expect(try b.read().version == 0)
    }

    @Test func badURLsAndCredentialsFailAtStartWithoutThePassword() throws {
        let url = try #require(TestDatabase.url)
        let port = try #require(URLComponents(string: url)?.port)
        let cases = [
            ("http://example/x", "not a PostgreSQL URL"),
            ("postgres://switchboard:sekrit-wrong@127.0.0.1:\(port)/switchboard", "127.0.0.1:\(port)/switchboard"),
            ("postgres://switchboard:switchboard@127.0.0.1:\(port)/no_such_database", "no_such_database"),
            ("postgres://switchboard:sekrit-wrong@127.0.0.1:1/switchboard", "127.0.0.1:1/switchboard"),
        ]
        for (bad, expected) in cases {
            do {
                _ = try PostgresStore(url: bad, scope: "x")
                Issue.record("\(bad) opened")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
                #expect(!error.description.contains("sekrit"), "\(error.description)")
            }
        }
    }

    @Test func boardsOnOneDatabaseSeeEachOthersWritesThroughNotifications() async throws {
        let scope = "replicas-\(UUID().uuidString)"
        let writer = try TestDatabase.board(TestDatabase.store(scope: scope))
        // A slow poll: only a notification brings the change within the deadline below.
        let reader = try TestDatabase.board(
            PostgresStore(endpoint: .init(url: TestDatabase.url ?? ""), scope: scope, pollInterval: .seconds(600)),
            polling: .seconds(600))
        try await waitUntil("the reader listens") { reader.status.storeProblem == nil }
        try writer.set("limit", to: 42, actor: "alice")
        try await waitUntil("the reader sees the write") { reader.int("limit", default: 0) == 42 }
        #expect(reader.details("limit", default: 0).layer == .runtime)
        try writer.reset("limit", actor: "alice")
        try await waitUntil("the reader sees the reset") { reader.int("limit", default: 0) == 5 }
    }

    @Test func aRefusedValueRunsNoSQL() throws {
        let store = try TestDatabase.store()
        let board = try TestDatabase.board(store)
        #expect(throws: Board.SetError.self) { try board.set("limit", to: 1000, actor: "a") }
        #expect(try store.read().version == 0)
        #expect(try store.auditLog(limit: 10).isEmpty)
    }
}
