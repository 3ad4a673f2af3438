import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime layer's persisted override store: a JSON file, written atomically under a file lock, with every
/// change appended to an audit log.
///
/// - Writes go to a temporary file in the same directory, which is fsynced, renamed over the store, and the
///   directory fsynced: a crash or `kill -9` leaves the old file or the new one, never a torn one.
/// - Writers in any number of processes are serialized by `flock` on `<store>.lock`, and each change re-reads
///   the file under the lock, so no update is lost.
/// - A store that does not parse is reported and left untouched: reads report it, writes refuse.
public final class RuntimeStore: Sendable {
    /// One persisted override.
    public struct Entry: Sendable, Hashable {
        /// The value.
        public var value: Value
        /// Who set it.
        public var actor: String
        /// When, in ISO 8601 UTC.
        public var time: String

        /// Creates an entry.
        public init(value: Value, actor: String, time: String) {
            self.value = value
            self.actor = actor
            self.time = time
        }
    }

    /// One line of the audit log.
    public struct AuditRecord: Sendable, Hashable {
        /// When, in ISO 8601 UTC.
        public var time: String
        /// Who.
        public var actor: String
        /// Which key.
        public var key: String
        /// The value before (`nil`: no override).
        public var old: Value?
        /// The value after (`nil`: the override was removed).
        public var new: Value?

        /// Creates a record.
        public init(time: String, actor: String, key: String, old: Value?, new: Value?) {
            self.time = time
            self.actor = actor
            self.key = key
            self.old = old
            self.new = new
        }

        /// The record as one JSON line.
        public var json: String {
            var object: [String: Value] = ["time": .string(time), "actor": .string(actor), "key": .string(key)]
            object["old"] = old ?? .null
            object["new"] = new ?? .null
            return Value.object(object).json
        }
    }

    /// A store problem: the file is corrupt, or it could not be read or written.
    public struct StoreError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with the path.
        public var message: String
        /// What to do about it.
        public var hint: String?

        /// The message and the hint.
        public var description: String {
            hint.map { "\(message)\n  hint: \($0)" } ?? message
        }
    }

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

    /// Reads the overrides. A missing file is an empty store.
    public func read() throws(StoreError) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw StoreError(message: "cannot read the override store \(path)", hint: "check its permissions")
            }
            return [:]
        }
        return try Self.decode([UInt8](data), path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> [String: Entry] {
        let corrupt = { (detail: String) in
            StoreError(
                message: "the override store \(path) is corrupt: \(detail)",
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
        var entries: [String: Entry] = [:]
        for (key, item) in overrides {
            guard case .object(let fields) = item, let value = fields["value"] else {
                throw corrupt("the override of \(key) has no \"value\"")
            }
            entries[key] = Entry(value: value, actor: fields["actor"]?.stringValue ?? "unknown",
                                 time: fields["time"]?.stringValue ?? "")
        }
        return entries
    }

    static func encode(_ entries: [String: Entry]) -> String {
        var out = "{\n  \"version\": 1,\n  \"overrides\": {"
        for (index, key) in entries.keys.sorted().enumerated() {
            let entry = entries[key]!
            out += index == 0 ? "\n    " : ",\n    "
            Value.writeJSONString(key, to: &out)
            out += ": "
            Value.object(["value": entry.value, "actor": .string(entry.actor), "time": .string(entry.time)])
                .writeJSON(to: &out)
        }
        out += entries.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return out
    }

    /// Changes the store under the lock: reads the current file, lets `change` edit the entries, writes the result
    /// atomically and appends an audit record for every key whose value changed. Nothing is written when
    /// `change` throws or changes nothing.
    ///
    /// - Returns: the audit records of the change.
    @discardableResult
    public func update(
        actor: String, _ change: (inout [String: Entry]) throws -> Void
    ) throws -> [AuditRecord] {
        try inProcess.withLock { _ in
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent.isEmpty
                    ? "." : (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard lock >= 0 else { throw Self.posixError("cannot open the lock file \(lockPath)") }
            defer { close(lock) }
            while flock(lock, LOCK_EX) != 0 {
                guard errno == EINTR else { throw Self.posixError("cannot lock \(lockPath)") }
            }
            defer { flock(lock, LOCK_UN) }
            let before = try read()
            var after = before
            try change(&after)
            let time = Self.now()
            var records: [AuditRecord] = []
            for key in Set(before.keys).union(after.keys).sorted() where before[key]?.value != after[key]?.value {
                records.append(AuditRecord(time: time, actor: actor, key: key,
                                           old: before[key]?.value, new: after[key]?.value))
            }
            guard !records.isEmpty else { return [] }
            // Open the audit log before changing the store, so a log that cannot be written refuses the change
            // instead of leaving it unrecorded.
            let audit = open(auditPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard audit >= 0 else { throw Self.posixError("cannot open the audit log \(auditPath)") }
            defer { close(audit) }
            try writeAtomically(Self.encode(after))
            try appendAudit(records, to: audit)
            return records
        }
    }

    private func writeAtomically(_ text: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.posixError("cannot create \(temporary)") }
        var ok = Self.writeAll(fd, Array(text.utf8)) && fsync(fd) == 0
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

    private func appendAudit(_ records: [AuditRecord], to fd: Int32) throws {
        let text = records.map { $0.json + "\n" }.joined()
        guard Self.writeAll(fd, Array(text.utf8)), fsync(fd) == 0 else {
            throw Self.posixError("cannot append to the audit log \(auditPath)")
        }
    }

    /// The last `limit` audit records, oldest first. Lines that do not parse (a torn last line after a crash)
    /// are skipped.
    public func auditLog(limit: Int = .max) -> [AuditRecord] {
        guard let data = FileManager.default.contents(atPath: auditPath) else { return [] }
        var records: [AuditRecord] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard case .object(let fields)? = try? Value(jsonBytes: [UInt8](line)),
                  let key = fields["key"]?.stringValue
            else { continue }
            let old = fields["old"].flatMap { $0 == .null ? nil : $0 }
            let new = fields["new"].flatMap { $0 == .null ? nil : $0 }
            records.append(AuditRecord(time: fields["time"]?.stringValue ?? "", actor: fields["actor"]?.stringValue ?? "",
                                       key: key, old: old, new: new))
        }
        return Array(records.suffix(limit))
    }

    /// Identifies the store file's current version (inode, size, modification time), or `nil` when it is absent.
    /// Polling this is how a change made by another process is noticed.
    public func fingerprint() -> FileFingerprint? {
        FileFingerprint(path: path)
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
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
        StoreError(message: "\(message): \(String(cString: strerror(errno)))")
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
