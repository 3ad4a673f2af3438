import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// One store shared by many callers at once, as a server's request handlers share it: every transaction stays
/// whole, and compare-and-set still has exactly one winner.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresConcurrentCallerTests {
    @Test func concurrentWritersOnOneStoreKeepTheirTransactionsApart() async throws {
        let store = try TestDatabase.store()
        let wins = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    (try? store.apply([OverrideChange(key: "limit", value: .int(index))], by: .unverified("w\(index)"),
                                      condition: WriteCondition(key: "limit", version: 0))) != nil
                }
                group.addTask {
                    (try? store.apply([OverrideChange(key: "k\(index)", value: .int(index))],
                                      by: .unverified("w\(index)"),
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
