import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The file store's audit log as its journal: a write appends to the log and nothing else, other stores on the
/// same files replay it, a write a crash cut short is ignored and then truncated, and a line that is not the next
/// write's record is reported instead of applied.
struct FileStoreJournalTests {
    /// A store in a fresh directory; a second `FileStore` on the same path stands for another process.
    struct Files {
        let directory = TemporaryDirectory()
        var path: String { directory.file(".switchboard/overrides.json") }
        var log: String { directory.file(".switchboard/audit.jsonl") }

        func store() -> FileStore { FileStore(path: path) }

        func bytes(_ file: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: file) ?? Data()) }

        func append(_ bytes: [UInt8], to file: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: bytes)
            try handle.close()
        }
    }

    @discardableResult
    func set(_ store: FileStore, _ key: String, _ value: Value?) throws -> StoreWrite {
        try store.apply([OverrideChange(key: key, value: value)], by: .unverified("t"), condition: nil)
    }

    func record(_ key: String, _ value: Value, version: UInt64) -> AuditRecord {
        AuditRecord(time: "2026-11-24T10:00:00.000Z", actor: "ghost", key: key, old: nil, new: value, version: version)
    }

    @Test func aWriteAppendsOneLineAndLeavesTheStateFileAlone() throws {
        let files = Files()
        let store = files.store()
        try set(store, "app.a", .int(1))
        let state = files.bytes(files.path)
        let log = files.bytes(files.log)
        try set(store, "app.b", .int(2))
        #expect(files.bytes(files.path) == state)
        let appended = files.bytes(files.log).dropFirst(log.count)
        #expect(appended.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        let other = try files.store().read()
        #expect(other.version == 2)
        #expect(other.entries.mapValues(\.value) == ["app.a": .int(1), "app.b": .int(2)])
        #expect(other == (try store.read()))
    }

    @Test func aWriteOfSeveralKeysIsOneRecordEachAndAllOrNothing() throws {
        let files = Files()
        let store = files.store()
        let changes = [OverrideChange(key: "app.a", value: .int(1)), OverrideChange(key: "app.b", value: .int(2))]
        _ = try store.apply(changes, by: .unverified("t"), condition: nil)
        let lines = try #require(files.directory.read(".switchboard/audit.jsonl")).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"more\":true"))
        #expect(!lines[1].contains("\"more\""))
        #expect(try files.store().read().entries.count == 2)
        #expect(try files.store().auditLog().map(\.key) == ["app.a", "app.b"])
    }

    /// What a crash can leave of the next record: some of its bytes, all of them but the newline, or bytes a
    /// file system never wrote.
    enum Fragment: String, CaseIterable {
        case prefix, withoutNewline, zeros
    }

    @Test(arguments: Fragment.allCases)
    func anUnterminatedLastRecordIsIgnoredThenTruncated(_ fragment: Fragment) throws {
        let files = Files()
        let store = files.store()
        try set(store, "app.a", .int(1))
        try set(store, "app.b", .int(2))
        let before = files.bytes(files.log)
        let line = Array(AuditJournal.lines([record("app.ghost", .int(9), version: 3)]).utf8)
        switch fragment {
        case .prefix: try files.append(Array(line.prefix(25)), to: files.log)
        case .withoutNewline: try files.append(Array(line.dropLast()), to: files.log)
        case .zeros: try files.append([UInt8](repeating: 0, count: 40), to: files.log)
        }
        let other = files.store()
        let contents = try other.read()
        #expect(contents.version == 2)
        #expect(contents.entries["app.ghost"] == nil)
        #expect(try other.auditLog().map(\.key) == ["app.a", "app.b"])
        // The next writer cuts the fragment off before appending.
        let write = try set(other, "app.c", .int(3))
        #expect(write.version == 3)
        let after = files.bytes(files.log)
        #expect(Array(after.prefix(before.count)) == before)
        let text = String(decoding: after, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines { #expect(throws: Never.self) { try Value(json: String(line)) } }
        #expect(try files.store().read().entries.mapValues(\.value)
            == ["app.a": .int(1), "app.b": .int(2), "app.c": .int(3)])
    }

    @Test func aWriteCutShortBetweenItsRecordsIsIgnoredThenTruncated() throws {
        let files = Files()
        let store = files.store()
        try set(store, "app.a", .int(1))
        let before = files.bytes(files.log)
        // The first record of a two-key write reached the log; its last did not.
        let lines = AuditJournal.lines([record("app.b", .int(2), version: 2), record("app.c", .int(3), version: 2)])
        let first = try #require(lines.split(separator: "\n").first)
        try files.append(Array((first + "\n").utf8), to: files.log)
        let other = files.store()
        #expect(try other.read().version == 1)
        #expect(try other.read().entries["app.b"] == nil)
        #expect(try other.auditLog().map(\.key) == ["app.a"])
        try set(other, "app.d", .int(4))
        let log = files.bytes(files.log)
        #expect(Array(log.prefix(before.count)) == before)
        #expect(try files.store().auditLog().map(\.key) == ["app.a", "app.d"])
        #expect(try files.store().read().entries.keys.sorted() == ["app.a", "app.d"])
    }

    /// Lines after the state file's offset that a crash cannot leave: they are reported, never applied, and the
    /// store refuses writes until someone looks.
    @Test(arguments: ["not a record\n", "{\"key\":\"app.z\",\"new\":1,\"version\":7}\n"])
    func aLineThatIsNotTheNextRecordIsReportedAndNothingIsWritten(_ line: String) throws {
        let files = Files()
        let store = files.store()
        try set(store, "app.a", .int(1))
        let offset = files.bytes(files.log).count
        try files.append(Array(line.utf8), to: files.log)
        let state = files.bytes(files.path)
        let log = files.bytes(files.log)
        let other = files.store()
        let error = #expect(throws: StoreError.self) { try other.read() }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.hasPrefix("the audit log \(files.log) is corrupt at byte \(offset): ") == true,
                "\(String(describing: error))")
        // The hint says what a reader gets: nothing from this store, not the writes before the line.
        #expect(error?.hint == "it was left as it is, and no override is read from this store until that line is "
                + "fixed or removed by hand")
        let refusal = #expect(throws: StoreError.self) { try set(other, "app.c", .int(3)) }
        #expect(refusal?.kind == .corrupt)
        #expect(files.bytes(files.path) == state)
        #expect(files.bytes(files.log) == log)
    }

    @Test func twoStoresInOneDirectoryKeepJournalsOfTheirOwn() throws {
        let directory = TemporaryDirectory()
        let first = FileStore(path: directory.file("state/a.json"))
        let second = FileStore(path: directory.file("state/b.json"))
        #expect(first.auditPath != second.auditPath)
        #expect(FileStore(path: directory.file("state/overrides.json")).auditPath == directory.file("state/audit.jsonl"))
        try set(first, "app.a", .int(1))
        try set(second, "app.b", .int(2))
        try set(first, "app.a", .int(3))
        #expect(try first.read().entries.mapValues(\.value) == ["app.a": .int(3)])
        #expect(try second.read().entries.mapValues(\.value) == ["app.b": .int(2)])
        #expect(try first.read().version == 2)
    }

    @Test func anotherStoreFollowsWritesThroughTheLog() throws {
        let files = Files()
        let writer = files.store()
        let reader = files.store()
        try set(writer, "app.a", .int(1))
        #expect(try reader.read().version == 1)
        try set(writer, "app.b", .int(2))
        try set(writer, "app.a", nil)
        let delta = try #require(try reader.changes(since: 1))
        #expect(delta.version == 3)
        #expect(delta.changed.count == 2)
        #expect(delta.changed["app.a"] == .some(nil))
        #expect(delta.changed["app.b"]??.value == .int(2))
        #expect(try reader.changes(since: 3)?.changed.isEmpty == true)
        #expect(try reader.read() == writer.read())
    }
}
