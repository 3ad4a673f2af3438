import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// Who made each write, in the file store: the audit log keeps the attribution (state file format 4), the
/// override its actor; a store of format 3 loads, its records unverified, and takes attributed writes.
struct FileStoreAttributionTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file(".switchboard/overrides.json") }
    static let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)

    @Test func theAuditLogKeepsTheAttributionAndTheOverrideItsActor() throws {
        let store = FileStore(path: path)
        let write = try store.apply([OverrideChange(key: "app.a", value: 1)], by: Self.verified, condition: nil)
        _ = try store.apply([OverrideChange(key: "app.a", value: 2)], by: .unverified("cli:bob"), condition: nil)
        #expect(write.records.map(\.attribution) == [Self.verified])
        #expect(write.changed["app.a"]??.actor == "ana")
        let reopened = FileStore(path: path)
        #expect(try reopened.auditLog().map(\.attribution) == [Self.verified, .unverified("cli:bob")])
        #expect(try reopened.read().entries["app.a"]?.actor == "cli:bob")
        let lines = try #require(directory.read(".switchboard/audit.jsonl")).split(separator: "\n")
        #expect(lines[0].contains(#""actor":"ana","claimed_actor":"mallory""#))
        #expect(lines[0].contains(#""verified":true"#))
        #expect(lines[1].contains(#""verified":false"#) && !lines[1].contains("claimed_actor"))
    }

    @Test func aCompactedStateFileIsOfFormatFour() throws {
        let store = FileStore(path: path, compactionBytes: 0)
        _ = try store.apply([OverrideChange(key: "app.a", value: 1)], by: Self.verified, condition: nil)
        _ = try store.apply([OverrideChange(key: "app.b", value: 2)], by: Self.verified, condition: nil)
        #expect(FileStore.formatVersion == 4)
        #expect(try #require(directory.read(".switchboard/overrides.json")).contains(#""version": 4,"#))
        #expect(try FileStore(path: path).auditLog().map(\.verified) == [true, true])
    }

    @Test func aStoreOfFormatThreeLoadsUnverifiedAndTakesAttributedWrites() throws {
        directory.write(".switchboard/overrides.json", """
            {
              "version": 3,
              "revision": 1,
              "audit_offset": 0,
              "overrides": {
                "app.a": {"actor":"alice","expires_at":"2099-01-01T00:00:00.000Z",\
            "time":"2026-11-20T10:00:00.000Z","value":1,"version":1}
              }
            }

            """)
        directory.write(".switchboard/audit.jsonl", """
            {"actor":"bob","key":"app.b","new":2,"old":null,"time":"2026-11-20T10:00:01.000Z","version":2}

            """)
        let store = FileStore(path: path)
        let contents = try store.read()
        #expect(contents.version == 2)
        #expect(contents.entries.mapValues(\.value) == ["app.a": 1, "app.b": 2])
        #expect(contents.entries.mapValues(\.actor) == ["app.a": "alice", "app.b": "bob"])
        #expect(try store.auditLog().map(\.attribution) == [.unverified("bob")])
        _ = try store.apply([OverrideChange(key: "app.c", value: 3)], by: Self.verified, condition: nil)
        let reopened = FileStore(path: path)
        #expect(try reopened.read().version == 3)
        #expect(try reopened.auditLog().map(\.attribution) == [.unverified("bob"), Self.verified])
    }
}
