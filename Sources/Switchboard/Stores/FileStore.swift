import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default ``RuntimeStore``: a JSON file, written atomically under a file lock, with every change appended to
/// an audit log of JSON lines beside it.
///
/// - Writes go to a temporary file in the same directory, which is fsynced, renamed over the store, and the
///   directory fsynced: a crash or `kill -9` leaves the old file or the new one, never a torn one.
/// - Writers in any number of processes are serialized by `flock` on `<store>.lock`, and each write re-reads
///   the file under the lock (unless it is the file this process wrote last), so no update is lost.
/// - A store that does not parse is reported and left untouched: reads report it, writes refuse.
/// - The file records the store's version and each override's version, for compare-and-set writes.
public final class FileStore: RuntimeStore {
    /// The store file.
    public let path: String
    /// The lock file.
    public let lockPath: String
    /// The audit log (JSON lines).
    public let auditPath: String
    private let inProcess = Mutex(())

    /// Creates a store at a path; nothing is created on disk until the first write.
    public init(path: String) {
        self.path = path
        self.lockPath = path + ".lock"
        let directory = (path as NSString).deletingLastPathComponent
        self.auditPath = (directory.isEmpty ? "." : directory) + "/audit.jsonl"
    }

    /// The default store for a definitions directory: `.switchboard/overrides.json` beside it, so a REPL and a
    /// server started in the same project share it.
    public static func defaultPath(flagsDirectory: String) -> String {
        let absolute = (flagsDirectory as NSString).standardizingPath
        var parent = (absolute as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        return parent == "." ? ".switchboard/overrides.json" : "\(parent)/.switchboard/overrides.json"
    }

    /// Reads the store file's contents.
    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StoreContents {
        let corrupt = { (detail: String) in
            StoreError(
                .corrupt, message: "the override store \(path) is corrupt: \(detail)",
                hint: "it was left as it is; fix it by hand or move it aside (mv \(path) \(path).bad) to start empty")
        }
        let root: Value
        do {
            root = try Value(jsonBytes: bytes)
        } catch {
            throw corrupt("\(error)")
        }
        guard case .object(let object) = root, case .object(let overrides)? = object["overrides"] else {
            throw corrupt("expected an object with \"overrides\"")
        }
        var entries: [String: StoredOverride] = [:]
        for (key, item) in overrides {
            guard case .object(let fields) = item, let value = fields["value"] else {
                throw corrupt("the override of \(key) has no \"value\"")
            }
            entries[key] = StoredOverride(value: value, actor: fields["actor"]?.stringValue ?? "unknown",
                                          time: fields["time"]?.stringValue ?? "",
                                          version: Self.version(fields["version"]))
        }
        return StoreContents(entries: entries, version: Self.version(object["revision"]))
    }

    private static func version(_ value: Value?) -> UInt64 {
        value?.intValue.map { UInt64(max(0, $0)) } ?? 0
    }

    /// The store file's text: `version` is the file format's, `revision` the store's version.
    static func encode(_ contents: StoreContents) -> String {
        var out = "{\n  \"version\": 1,\n  \"revision\": \(contents.version),\n  \"overrides\": {"
        for (index, key) in contents.entries.keys.sorted().enumerated() {
            let entry = contents.entries[key]!
            out += index == 0 ? "\n    " : ",\n    "
            Value.writeJSONString(key, to: &out)
            out += ": "
            // The fields in sorted order, as a JSON object of them would be written, without building one.
            out += "{\"actor\":"
            Value.writeJSONString(entry.actor, to: &out)
            out += ",\"time\":"
            Value.writeJSONString(entry.time, to: &out)
            out += ",\"value\":"
            entry.value.writeJSON(to: &out)
            out += ",\"version\":\(entry.version)}"
        }
        out += contents.entries.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return out
    }

    /// The store's kind.
    public var kind: String { "file" }
    /// The store file's path.
    public var location: String { path }

    /// What this process last read or wrote, by the file's fingerprint: a read of an unchanged file costs a
    /// `stat`, not a parse.
    private let cache = Mutex<(fingerprint: FileFingerprint, contents: StoreContents)?>(nil)
    /// This process's own recent writes, oldest first: while the file is the one it wrote last, a reader asking
    /// what changed gets the answer from here instead of comparing every override.
    private let journal = Mutex<[StoreDelta]>([])
    private static let journalLength = 64

    /// Every override with the store's version. A missing file is an empty store at version 0.
    public func read() throws(StoreError) -> StoreContents {
        let fingerprint = FileFingerprint(path: path)
        if let fingerprint, let cached = cache.withLock({ $0 }), cached.fingerprint == fingerprint {
            return cached.contents
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw StoreError(message: "cannot read the override store \(path)", hint: "check its permissions")
            }
            return StoreContents(entries: [:], version: 0)
        }
        let contents = try Self.decode([UInt8](data), path: path)
        // Only a fingerprint taken before the read may vouch for what was read.
        if let fingerprint, FileFingerprint(path: path) == fingerprint {
            cache.withLock { $0 = (fingerprint, contents) }
        }
        return contents
    }

    /// Applies changes under the lock: re-reads the file, checks the condition, writes the result atomically and
    /// appends an audit record for every key whose value changed. Nothing is written when the condition fails
    /// or nothing changes.
    public func apply(
        _ changes: [OverrideChange], actor: String, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        try locked { () throws(StoreError) in try applyLocked(changes, actor: actor, condition: condition) }
    }

    /// Runs `body` holding both locks: this process's, then the file lock every process takes.
    private func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try inProcess.withLock { _ throws(StoreError) in
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory,
                                                        withIntermediateDirectories: true)
            } catch {
                throw StoreError(message: "cannot create the directory of the override store \(path): \(error)")
            }
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard lock >= 0 else { throw Self.posixError("cannot open the lock file \(lockPath)") }
            defer { close(lock) }
            while flock(lock, LOCK_EX) != 0 {
                guard errno == EINTR else { throw Self.posixError("cannot lock \(lockPath)") }
            }
            defer { flock(lock, LOCK_UN) }
            return try body()
        }
    }

    private func applyLocked(
        _ changes: [OverrideChange], actor: String, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        let before = try read()
        if let condition { try condition.check(against: before.entries[condition.key]) }
        let plan = StoreWrite(planning: changes, actor: actor, time: StoredOverride.currentTime(),
                              version: before.version + 1, current: { before.entries[$0] })
        guard !plan.records.isEmpty else { return StoreWrite(version: before.version, changed: [:], records: []) }
        let version = plan.version
        var after = before.entries
        for (key, entry) in plan.changed { after[key] = entry }
        // Open the audit log before changing the store, so a log that cannot be written refuses the change
        // instead of leaving it unrecorded.
        let audit = open(auditPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard audit >= 0 else { throw Self.posixError("cannot open the audit log \(auditPath)") }
        defer { close(audit) }
        let contents = StoreContents(entries: after, version: version)
        try writeAtomically(Self.encode(contents))
        if let fingerprint = FileFingerprint(path: path) {
            cache.withLock { $0 = (fingerprint, contents) }
        }
        journal.withLock { journal in
            // Only a journal without gaps can answer; another writer's version in between starts it anew.
            if journal.last?.version != before.version { journal.removeAll() }
            journal.append(StoreDelta(version: version, changed: plan.changed))
            if journal.count > Self.journalLength { journal.removeFirst(journal.count - Self.journalLength) }
        }
        try appendAudit(plan.records, to: audit)
        return plan
    }

    /// Fills an empty store with an export, under the lock: the store file atomically, then the audit log.
    public func importing(_ export: StoreExport) throws(StoreError) {
        try locked { () throws(StoreError) in
            guard try read().entries.isEmpty, auditLog(limit: 1).isEmpty else {
                throw StoreError(message: "the override store \(path) is not empty",
                                 hint: "import into an empty store; move the existing one aside first")
            }
            let audit = open(auditPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard audit >= 0 else { throw Self.posixError("cannot open the audit log \(auditPath)") }
            defer { close(audit) }
            try writeAtomically(Self.encode(export.contents))
            journal.withLock { $0.removeAll() }
            try appendAudit(export.audit, to: audit)
        }
    }

    /// The changes after `version`, from this process's own writes, while the file is still the one it wrote
    /// last; `nil` otherwise.
    public func changes(since version: UInt64) throws(StoreError) -> StoreDelta? {
        guard let fingerprint = FileFingerprint(path: path),
              let cached = cache.withLock({ $0 }), cached.fingerprint == fingerprint
        else { return nil }
        let deltas = journal.withLock { $0 }
        guard cached.contents.version == deltas.last?.version ?? version else { return nil }
        if cached.contents.version == version { return StoreDelta(version: version, changed: [:]) }
        guard let first = deltas.firstIndex(where: { $0.version == version + 1 }) else { return nil }
        return StoreDelta(merging: Array(deltas[first...]), from: version)
    }

    /// Polls the file's fingerprint every `interval` and calls `handler` when it changes.
    public func watch(every interval: Duration, _ handler: @escaping @Sendable () -> Void) -> StoreWatch {
        let path = self.path
        let task = Task.detached {
            var last = FileFingerprint(path: path)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = FileFingerprint(path: path)
                if now != last {
                    last = now
                    handler()
                }
            }
        }
        return StoreWatch { task.cancel() }
    }

    private func writeAtomically(_ text: String) throws(StoreError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.posixError("cannot create \(temporary)") }
        var ok = Self.writeAll(fd, Array(text.utf8)) && Self.syncData(fd)
        close(fd)
        ok = ok && rename(temporary, path) == 0
        guard ok else {
            let error = Self.posixError("cannot write the override store \(path)")
            unlink(temporary)
            throw error
        }
        let directory = (path as NSString).deletingLastPathComponent
        let dirfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    private func appendAudit(_ records: [AuditRecord], to fd: Int32) throws(StoreError) {
        let text = records.map { $0.json + "\n" }.joined()
        guard Self.writeAll(fd, Array(text.utf8)), Self.syncData(fd) else {
            throw Self.posixError("cannot append to the audit log \(auditPath)")
        }
    }

    /// The last `limit` audit records, oldest first. Lines that do not parse (a torn last line after a crash)
    /// are skipped.
    public func auditLog(limit: Int = .max) -> [AuditRecord] {
        guard let data = FileManager.default.contents(atPath: auditPath) else { return [] }
        var records: [AuditRecord] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let value = try? Value(jsonBytes: [UInt8](line)), let record = AuditRecord(json: value)
            else { continue }
            records.append(record)
        }
        return Array(records.suffix(limit))
    }

    /// Flushes a file's data (and the metadata needed to read it back) to the disk.
    private static func syncData(_ fd: Int32) -> Bool {
        #if os(Linux)
        fdatasync(fd) == 0
        #else
        fsync(fd) == 0
        #endif
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    private static func posixError(_ message: String) -> StoreError {
        StoreError(.unavailable, message: "\(message): \(String(cString: strerror(errno)))")
    }
}

/// A file's identity and version, from `stat`: changes whenever the file is replaced or modified.
public struct FileFingerprint: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// Stats a path; `nil` when it does not exist.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        seconds = info.st_mtimespec.tv_sec
        nanoseconds = info.st_mtimespec.tv_nsec
        #else
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        #endif
    }
}
