import Foundation
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// Moving between stores: from the file store to PostgreSQL and back, unchanged.
@Suite(.enabled(if: TestDatabase.url != nil, TestDatabase.skipNote))
struct PostgresStoreMoveTests {
    @Test func fileToPostgresAndBackIsIdentical() throws {
        let directory = TemporaryDirectory()
        let file = FileStore(path: directory.file("state/overrides.json"))
        _ = try file.apply([OverrideChange(key: "limit", value: 7)], by: .unverified("alice"), condition: nil)
        _ = try file.apply([OverrideChange(key: "motto", value: "it's ; fine")], by: .unverified("bob"),
                           condition: nil)
        _ = try file.apply([OverrideChange(key: "limit", value: nil)], by: .unverified("carol"), condition: nil)
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
        #expect(try postgres.apply([OverrideChange(key: "limit", value: 1)], by: .unverified("d"), condition: nil)
                    .version == 4)
    }
}
