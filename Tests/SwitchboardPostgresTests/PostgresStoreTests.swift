import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// The database these tests use: `SWITCHBOARD_TEST_POSTGRES_URL`, as `scripts/test-postgres.sh start` prints it.
/// Without it the suite is skipped (one line says so); CI always sets it.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_URL"]
    static let skipNote: Comment = """
        no PostgreSQL: run `scripts/test-postgres.sh start` and set SWITCHBOARD_TEST_POSTGRES_URL to the URL it prints
        """

    /// A store on the test database, in a scope of its own so tests do not see each other's rows.
    static func store(scope: String = "test-\(UUID().uuidString)") throws -> PostgresStore {
        try PostgresStore(url: url ?? "", scope: scope)
    }

    static let definitions = """
        flags:
          new_flow:
            type: bool
            default: false
        preferences:
          motto:
            type: string
            default: hello
          limit:
            type: int
            default: 5
            max: 100
        """

    /// A board on the store, with definitions from text.
    static func board(_ store: PostgresStore, polling: Duration? = nil) throws -> Board {
        let options = Board.Options(environment: [:], pollInterval: polling, watchDefinitions: false, store: store)
        return try Board(inputs: BoardInputs(definitions: .sources([("flags/a.yaml", definitions)]), options: options),
                         options: options)
    }
}

@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresStoreTests {
    @Test func writesReadsAndAudits() throws {
        let store = try TestDatabase.store()
        #expect(try store.read().version == 0)
        let write = try store.apply([OverrideChange(key: "limit", value: 7)], actor: "alice", condition: nil)
        #expect(write.version == 1)
        #expect(write.records.map(\.key) == ["limit"])
        let contents = try store.read()
        #expect(contents.version == 1)
        #expect(contents.entries["limit"]?.value == 7)
        #expect(contents.entries["limit"]?.actor == "alice")
        #expect(contents.entries["limit"]?.version == 1)
        _ = try store.apply([OverrideChange(key: "limit", value: nil)], actor: "bob", condition: nil)
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

    @Test func craftedValuesComeBackExactlyAndChangeNothingElse() throws {
        let store = try TestDatabase.store()
        _ = try store.apply([OverrideChange(key: "other", value: "untouched")], actor: "a", condition: nil)
        let hostile: [Value] = [
            "'; DROP TABLE switchboard_overrides; --", "quote ' and \" and \\ and ;", "nul \u{0} inside",
            .string(String(repeating: "long ", count: 20_000)), ["list", 1, ["nested": "'"]], 1.5, -0.0,
        ]
        for (index, value) in hostile.enumerated() {
            let key = "key'; --\(index)"
            _ = try store.apply([OverrideChange(key: key, value: value)], actor: "robert'); --", condition: nil)
            let stored = try #require(try store.read().entries[key])
            #expect(stored.value == value)
            #expect(stored.actor == "robert'); --")
        }
        #expect(try store.read().entries["other"]?.value == "untouched")
        #expect(try store.read().entries.count == hostile.count + 1)
    }

    @Test func compareAndSetHasOneWinner() throws {
        let store = try TestDatabase.store()
        let first = try store.apply([OverrideChange(key: "limit", value: 1)], actor: "a",
                                    condition: WriteCondition(key: "limit", version: 0))
        #expect(throws: StoreError.self) {
            try store.apply([OverrideChange(key: "limit", value: 2)], actor: "b",
                            condition: WriteCondition(key: "limit", version: 0))
        }
        _ = try store.apply([OverrideChange(key: "limit", value: 3)], actor: "c",
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
                    (try? store.apply([OverrideChange(key: "limit", value: .int(index))], actor: "w\(index)",
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
        _ = try a.apply([OverrideChange(key: "limit", value: 1)], actor: "a", condition: nil)
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

/// A database outage, on a cluster of the test's own (so other tests keep theirs): lookups keep the last values,
/// writes fail cleanly, health says why, and every board catches up when the database returns.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresOutageTests {
    /// `scripts/test-postgres.sh` with arguments; its standard output.
    @discardableResult
    static func cluster(_ arguments: String...) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                    [root.appendingPathComponent("scripts/test-postgres.sh").path] + arguments,
                                    timeout: .seconds(180))
        guard result.status == 0 else {
            throw StoreError(message: "scripts/test-postgres.sh \(arguments.joined(separator: " ")) failed: "
                                 + result.stderr)
        }
        return result.stdout
    }

    @Test func boardsKeepServingThroughAnOutageAndCatchUpAfterIt() async throws {
        let lines = try Self.cluster("start").split(separator: "\n").map(String.init)
        let (url, directory) = (lines[0], lines[1])
        defer { _ = try? Self.cluster("stop", directory) }
        let scope = "outage"
        let writer = try TestDatabase.board(PostgresStore(url: url, scope: scope))
        let reader = try TestDatabase.board(
            PostgresStore(endpoint: .init(url: url), scope: scope, pollInterval: .seconds(1)), polling: .seconds(1))
        try writer.set("limit", to: 10, actor: "before")
        try await waitUntil("the reader sees the first write") { reader.int("limit", default: 0) == 10 }

        try Self.cluster("pause", directory)
        #expect(throws: Board.SetError.self) { try writer.set("limit", to: 11, actor: "during") }
        try await waitUntil("the reader reports the outage") { reader.status.storeProblem != nil }
        let problem = reader.status.storeProblem ?? ""
        #expect(problem.contains("127.0.0.1"), "\(problem)")
        #expect(!problem.contains(":switchboard@"), "the password must not show: \(problem)")
        #expect(reader.int("limit", default: 0) == 10)

        try Self.cluster("resume", directory)
        // A write made while the reader may still be reconnecting reaches it once it has.
        try await waitUntil("the writer writes again") {
            (try? writer.set("limit", to: 12, actor: "after")) != nil
        }
        try await waitUntil("the reader catches up") { reader.int("limit", default: 0) == 12 }
        try await waitUntil("the reader is healthy") { reader.status.storeProblem == nil }
        #expect(writer.auditLog().map(\.actor) == ["before", "after"])
    }
}

/// Moving between stores: from the file store to PostgreSQL and back, unchanged.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresStoreMoveTests {
    @Test func fileToPostgresAndBackIsIdentical() throws {
        let directory = TemporaryDirectory()
        let file = FileStore(path: directory.file("state/overrides.json"))
        _ = try file.apply([OverrideChange(key: "limit", value: 7)], actor: "alice", condition: nil)
        _ = try file.apply([OverrideChange(key: "motto", value: "it's ; fine")], actor: "bob", condition: nil)
        _ = try file.apply([OverrideChange(key: "limit", value: nil)], actor: "carol", condition: nil)
        let first = try StoreExport(from: file)
        let postgres = try TestDatabase.store()
        try postgres.importing(first)
        let second = try StoreExport(from: postgres)
        #expect(second == first)
        #expect(second.json == first.json)
        #expect(throws: StoreError.self) { try postgres.importing(first) }
        let back = FileStore(path: directory.file("back/overrides.json"))
        try back.importing(second)
        #expect(try StoreExport(from: back).json == first.json)
        // The next write continues the versions.
        #expect(try postgres.apply([OverrideChange(key: "limit", value: 1)], actor: "d", condition: nil).version == 4)
    }
}

/// One store shared by many callers at once, as a server's request handlers share it: every transaction stays
/// whole, and compare-and-set still has exactly one winner.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresConcurrentCallerTests {
    @Test func concurrentWritersOnOneStoreKeepTheirTransactionsApart() async throws {
        let store = try TestDatabase.store()
        let wins = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    (try? store.apply([OverrideChange(key: "limit", value: .int(index))], actor: "w\(index)",
                                      condition: WriteCondition(key: "limit", version: 0))) != nil
                }
                group.addTask {
                    (try? store.apply([OverrideChange(key: "k\(index)", value: .int(index))], actor: "w\(index)",
                                      condition: nil)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 17)
        let contents = try store.read()
        #expect(contents.version == 17)
        #expect(contents.entries.count == 17)
        #expect(try store.auditLog(limit: 100).count == 17)
    }
}
