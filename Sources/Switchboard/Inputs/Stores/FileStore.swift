import Foundation
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default ``RuntimeStore``: a state file of JSON and, beside it, the audit log of JSON lines, which is also
/// the store's journal. A write appends to the log and syncs it once.
///
/// - A write appends its audit records to `audit.jsonl` with one `write` and one `fdatasync`; that append is the
///   write. The state file (`overrides.json`) holds the overrides as of an offset of the log, and readers replay
///   the complete writes after it (see `AuditJournal`). A write cut short by a crash is ignored by readers and
///   truncated by the next writer.
/// - Once the log has grown past that offset by the state file's size (at least 64 KiB), the writer compacts:
///   the overrides and the log's length go to a temporary file, which is synced, renamed over the state file,
///   and the directory synced. A crash at any point leaves the old state file or the new one, and the log has
///   every write either way.
/// - Writers in any number of processes are serialized by `flock` on `<store>.lock`, and each write re-reads
///   the store under the lock (only what was appended to the log, while the state file is the one it read), so
///   no update is lost. Readers take no lock.
/// - A state file or an audit log that does not parse is reported and left untouched: reads report it, writes
///   refuse.
/// - The store records its version and each override's version, for compare-and-set writes.
/// - A state file written before the log was the journal (without `audit_offset`) is read as it is; the first
///   write records the log's length in it before appending.
/// - Overrides and audit records carry `expires_at` when they expire (state file format 3). Files written before
///   (formats 1 and 2, and logs without it) load as they are: their overrides never expire.
/// - Audit records carry `verified`, and `claimed_actor` when the client claimed another name (format 4). Logs
///   written before (formats 1 to 3) load as they are: their records read as unverified.
public final class FileStore: RuntimeStore {
    /// The state file.
    public let path: String
    /// The lock file.
    public let lockPath: String
    /// The audit log (JSON lines), which is also the journal of writes the state file does not hold yet:
    /// `audit.jsonl` beside the default `overrides.json`, and `NAME.audit.jsonl` beside any other `NAME.json`, so
    /// that two stores in one directory never share a journal.
    public let auditPath: String
    /// How many bytes of log past the state file's offset make a write compact the store; `nil` for the state
    /// file's size, at least 64 KiB, so that a compaction writes at most a byte of state per byte of log and a
    /// reader replays at most as much log as it reads state.
    public let compactionBytes: Int?
    private let inProcess = Locked(())

    /// Creates a store at a path; nothing is created on disk until the first write.
    public init(path: String, compactionBytes: Int? = nil) {
        self.path = path
        self.lockPath = path + ".lock"
        self.auditPath = Self.auditPath(forState: path)
        self.compactionBytes = compactionBytes.map { max(0, $0) }
    }

    /// The audit log's path for a state file's.
    static func auditPath(forState path: String) -> String {
        let name = FilePaths.deletingExtension(FilePaths.lastComponent(of: path))
        let audit = name == "overrides" ? "audit.jsonl" : "\(name).audit.jsonl"
        return FilePaths.join(FilePaths.directory(of: path), audit)
    }

    /// The default store for a definitions directory: `.switchboard/overrides.json` beside it, so a REPL and a
    /// server started in the same project share it.
    public static func defaultPath(flagsDirectory: String) -> String {
        let parent = FilePaths.parent(of: flagsDirectory)
        return parent == "." ? ".switchboard/overrides.json" : FilePaths.join(parent, ".switchboard/overrides.json")
    }

    /// Why `path` cannot be a state file, found before anything is read or written: it is empty, names a folder
    /// (it ends in `/` or is one), is a file this process may not read, or lies below a file. `nil` when
    /// it can be: the file and its folders may not exist yet.
    package static func problem(withPath path: String) -> StoreError? {
        let hint = "give the path of a file, such as .switchboard/overrides.json"
        if path.isEmpty { return StoreError(message: "the override store's path is empty", hint: hint) }
        var info = stat()
        if path.hasSuffix("/") || (stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR) {
            return StoreError(message: "the override store \(path) is a folder, not a file",
                              hint: "give the path of a file in it, such as "
                                  + FilePaths.join(FilePaths.normalized(path), "overrides.json"))
        }
        if access(path, F_OK) == 0, access(path, R_OK) != 0 {
            return StoreError(message: "cannot read the override store \(path)", hint: "check its permissions")
        }
        let directory = FilePaths.directory(of: path)
        if stat(directory, &info) == 0 ? (info.st_mode & S_IFMT) != S_IFDIR : errno == ENOTDIR {
            return StoreError(message: "the override store \(path) cannot be created: \(directory) is not a folder",
                              hint: hint)
        }
        return nil
    }

    /// The store's kind.
    public var kind: String { "file" }
    /// The state file's path.
    public var location: String { path }

    /// The store as this process last read or wrote it, with the fingerprints of both files then.
    private struct Reading: Sendable {
        /// The state file's fingerprint; `nil` when there was none.
        var stateFingerprint: FileFingerprint?
        /// The audit log's fingerprint; `nil` when there was none.
        var logFingerprint: FileFingerprint?
        /// The state file with the complete writes after its offset replayed.
        var contents: StoreContents
        /// The state file's size in bytes.
        var stateSize: Int
        /// The log offset the state file was written at; `nil` when there is no state file, it was written
        /// before the journal, or the log does not continue it. The next write then records one first.
        var start: Int?
        /// The log offset after the last complete write.
        var end: Int
        /// Whether the bytes after `end` are a write cut short (by a crash, or still being written).
        var torn: Bool
        /// The last writes this process made or read appended to the log it had read, oldest first, up to the
        /// contents' version. A reading of a new state file starts it empty: versions alone do not tell whether
        /// the store was moved aside and started again.
        var recent: [StoreDelta]
    }

    /// The last reading: a read of unchanged files costs two `stat`s, and a read after writes elsewhere parses
    /// only what they appended.
    private let cache = Locked<Reading?>(nil)
    private static let recentLength = 64
    private static let minimumCompactionBytes = 65_536

    /// Every override with the store's version. A missing state file is an empty store at version 0.
    public func read() throws(StoreError) -> StoreContents {
        try current(underLock: false).contents
    }

    /// The store now: the cached reading when neither file changed, else a new one.
    private func current(underLock: Bool) throws(StoreError) -> Reading {
        let state = FileFingerprint(path: path)
        let log = FileFingerprint(path: auditPath)
        let previous = cache.withLock { $0 }
        if let previous, !previous.torn, previous.stateFingerprint == state, previous.logFingerprint == log {
            return previous
        }
        let reading: Reading
        do throws(StoreError) {
            reading = try load(after: previous, state: state, log: log)
        } catch {
            // A writer truncating a write cut short can show a lock-free reader bytes of both; only a read with
            // no writer midway may call the store corrupt.
            guard case .corrupt = error.kind, !underLock else { throw error }
            return try sharedLocked { () throws(StoreError) in try current(underLock: true) }
        }
        // Only fingerprints taken before the read, and unchanged after it, may vouch for what was read.
        if !reading.torn, FileFingerprint(path: path) == state, FileFingerprint(path: auditPath) == log {
            cache.withLock { $0 = reading }
        }
        return reading
    }

    /// Reads the store: only the log appended since `previous` when the state file is the same, else both files.
    private func load(after previous: Reading?, state: FileFingerprint?, log: FileFingerprint?) throws(StoreError)
        -> Reading
    {
        if let previous, !previous.torn, previous.start != nil, let state, previous.stateFingerprint == state,
           let log, let known = previous.logFingerprint, log.isSameFile(as: known), log.size >= Int64(previous.end),
           let bytes = try logBytes(from: previous.end)
        {
            let replay = try replay(bytes, from: previous.end, onto: previous.contents)
            var reading = previous
            reading.logFingerprint = log
            reading.contents = replay.contents
            reading.end = replay.end
            reading.torn = replay.torn
            reading.recent = Array((previous.recent + replay.deltas).suffix(Self.recentLength))
            return reading
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if let problem = Self.problem(withPath: path) { throw problem }
            if FileManager.default.fileExists(atPath: path) {
                throw StoreError(message: "cannot read the override store \(path)", hint: "check its permissions")
            }
            let empty = StoreContents(entries: [:], version: 0)
            return Reading(stateFingerprint: nil, logFingerprint: log, contents: empty, stateSize: 0, start: nil,
                           end: 0, torn: false, recent: [])
        }
        let file = try Self.decodeState([UInt8](data), path: path)
        var reading = Reading(stateFingerprint: state, logFingerprint: log, contents: file.contents,
                              stateSize: data.count, start: nil, end: 0, torn: false, recent: [])
        guard let offset = file.auditOffset, let bytes = try logBytes(from: offset) else { return reading }
        let replay = try replay(bytes, from: offset, onto: file.contents)
        reading.contents = replay.contents
        reading.start = offset
        reading.end = replay.end
        reading.torn = replay.torn
        return reading
    }

    private func replay(_ bytes: [UInt8], from start: Int, onto contents: StoreContents) throws(StoreError)
        -> AuditJournal.Replay
    {
        do throws(AuditJournal.Problem) {
            return try AuditJournal.replay(bytes, from: start, onto: contents)
        } catch {
            throw corrupt(error)
        }
    }

    /// The store's error for a line of the audit log that is not a record.
    private func corrupt(_ problem: AuditJournal.Problem) -> StoreError {
        StoreError(
            .corrupt, message: "the audit log \(auditPath) is corrupt at byte \(problem.offset): \(problem.detail)",
            hint: "it was left as it is, and no override is read from this store until that line is fixed or "
                + "removed by hand")
    }

    /// The log from `offset` to its end; `nil` when the log is missing or shorter, or `offset` does not start a
    /// line: then it is not the log the state file was written with.
    private func logBytes(from offset: Int) throws(StoreError) -> [UInt8]? {
        let fd = open(auditPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.posixError("cannot read the audit log \(auditPath)")
        }
        defer { close(fd) }
        guard let bytes = FileBytes.read(fd, from: max(0, offset - 1)) else {
            throw Self.posixError("cannot read the audit log \(auditPath)")
        }
        if offset == 0 { return bytes }
        guard bytes.first == UInt8(ascii: "\n") else { return nil }
        return Array(bytes.dropFirst())
    }

    /// Applies changes under the lock: reads what changed in the store, checks the condition, and appends an
    /// audit record for every key whose value changed, synced once. Nothing is written when the condition fails
    /// or nothing changes.
    public func apply(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        try locked { () throws(StoreError) in try applyLocked(changes, by: attribution, condition: condition) }
    }

    /// Runs `body` holding both locks: this process's, then the file lock every process takes.
    private func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try inProcess.withLock { _ throws(StoreError) in
            if let problem = Self.problem(withPath: path) { throw problem }
            do {
                try FileManager.default.createDirectory(atPath: FilePaths.directory(of: path),
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

    /// Runs `body` holding the file lock shared, so that no writer is midway. Without a lock file nobody has
    /// written, and nothing is locked.
    private func sharedLocked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let lock = open(lockPath, O_RDONLY | O_CLOEXEC)
        guard lock >= 0 else { return try body() }
        defer { close(lock) }
        while flock(lock, LOCK_SH) != 0 {
            guard errno == EINTR else { throw Self.posixError("cannot lock \(lockPath)") }
        }
        defer { flock(lock, LOCK_UN) }
        return try body()
    }

    private func applyLocked(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        var reading = try current(underLock: true)
        let before = reading.contents
        let time = StoredOverride.currentTime()
        if let condition { try condition.check(against: before.entries[condition.key], at: time) }
        let plan = StoreWrite(planning: changes, by: attribution, time: time,
                              version: before.version + 1, current: { before.entries[$0] })
        guard !plan.records.isEmpty else { return StoreWrite(version: before.version, changed: [:], records: []) }
        let log = open(auditPath, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw Self.posixError("cannot open the audit log \(auditPath)") }
        defer { close(log) }
        if reading.start == nil {
            // No state file yet, one from before the journal, or a log that does not continue it: record the
            // overrides as they are with the log's length first, so that what is appended next replays onto them.
            // The directory sync of that also makes a log just created survive a crash.
            let end = try cutUnterminatedLine(log)
            try writeState(before, auditOffset: end, into: &reading)
            reading.end = end
        } else if reading.torn, ftruncate(log, off_t(reading.end)) != 0 {
            throw Self.posixError("cannot truncate a write cut short from the audit log \(auditPath)")
        }
        let bytes = Array(AuditJournal.lines(plan.records).utf8)
        guard AtomicFile.writeAll(log, bytes), AtomicFile.syncData(log) else {
            let error = Self.posixError("cannot append to the audit log \(auditPath)")
            // Leave no part of a write that failed.
            _ = ftruncate(log, off_t(reading.end))
            throw error
        }
        var after = before
        for (key, entry) in plan.changed { after.entries[key] = entry }
        after.version = plan.version
        reading.contents = after
        reading.end += bytes.count
        reading.torn = false
        reading.logFingerprint = FileFingerprint(path: auditPath)
        reading.recent.append(StoreDelta(version: plan.version, changed: plan.changed))
        reading.recent = Array(reading.recent.suffix(Self.recentLength))
        if let start = reading.start,
           reading.end - start >= compactionBytes ?? max(Self.minimumCompactionBytes, reading.stateSize)
        {
            // The write is durable already: a compaction that fails leaves the log longer, and the next write
            // tries again.
            try? writeState(after, auditOffset: reading.end, into: &reading)
        }
        cache.withLock { $0 = reading }
        return plan
    }

    /// Writes the state file atomically: `contents` as of the log offset `auditOffset`.
    private func writeState(_ contents: StoreContents, auditOffset: Int, into reading: inout Reading)
        throws(StoreError)
    {
        let text = Self.encode(contents, auditOffset: auditOffset)
        try writeAtomically(text)
        reading.stateFingerprint = FileFingerprint(path: path)
        reading.stateSize = text.utf8.count
        reading.start = auditOffset
    }

    /// Truncates an unterminated last line of the log (a record a crash cut short, written before the state file
    /// recorded an offset) and returns the log's length.
    private func cutUnterminatedLine(_ fd: Int32) throws(StoreError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.posixError("cannot read the audit log \(auditPath)") }
        let size = Int(info.st_size)
        var end = 0
        var chunkEnd = size
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - 65_536)
            guard let chunk = FileBytes.read(fd, from: chunkStart, upTo: chunkEnd) else {
                throw Self.posixError("cannot read the audit log \(auditPath)")
            }
            if let newline = chunk.lastIndex(of: UInt8(ascii: "\n")) {
                end = chunkStart + newline + 1
                break
            }
            chunkEnd = chunkStart
        }
        if end < size, ftruncate(fd, off_t(end)) != 0 {
            throw Self.posixError("cannot truncate a write cut short from the audit log \(auditPath)")
        }
        return end
    }

    /// Fills an empty store with an export, under the lock: the state file atomically, then the audit log.
    public func importing(_ export: StoreExport) throws(StoreError) {
        try locked { () throws(StoreError) in
            guard try current(underLock: true).contents.entries.isEmpty, try auditLog(limit: 1).isEmpty else {
                throw StoreError(message: "the override store \(path) is not empty",
                                 hint: "import into an empty store; move the existing one aside first")
            }
            let history = Array(export.audit.map { $0.json + "\n" }.joined().utf8)
            // Emptied first: until it is as long as the state file says, readers take the state file alone.
            let audit = open(auditPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard audit >= 0 else { throw Self.posixError("cannot open the audit log \(auditPath)") }
            defer { close(audit) }
            cache.withLock { $0 = nil }
            try writeAtomically(Self.encode(export.contents, auditOffset: history.count))
            guard AtomicFile.writeAll(audit, history), AtomicFile.syncData(audit) else {
                throw Self.posixError("cannot write the audit log \(auditPath)")
            }
        }
    }

    /// The changes after `version`, when the writes since are ones this process made or followed in the log;
    /// `nil` otherwise.
    public func changes(since version: UInt64) throws(StoreError) -> StoreDelta? {
        let reading = try current(underLock: false)
        if reading.contents.version == version { return StoreDelta(version: version, changed: [:]) }
        guard reading.recent.last?.version == reading.contents.version,
              let first = reading.recent.firstIndex(where: { $0.version == version + 1 })
        else { return nil }
        return StoreDelta(merging: Array(reading.recent[first...]), from: version)
    }

    /// Polls both files' fingerprints every `interval` and calls `handler` when either changes.
    public func watch(every interval: Duration, _ handler: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let path = self.path
        let auditPath = self.auditPath
        let task = Task.detached {
            var last = (FileFingerprint(path: path), FileFingerprint(path: auditPath))
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = (FileFingerprint(path: path), FileFingerprint(path: auditPath))
                if now != last {
                    last = now
                    handler()
                }
            }
        }
        return ChangeSubscription { task.cancel() }
    }

    /// Writes the state file so that a crash leaves the old one or the new one (see `AtomicFile`).
    private func writeAtomically(_ text: String) throws(StoreError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw StoreError(.unavailable, message: "cannot write the override store \(path): \(error)")
        }
    }

    /// The last `limit` audit records, oldest first. Lines that do not parse (one a crash cut short, in a log
    /// written before the journal) are skipped, and so is a write cut short at the end.
    public func auditLog(limit: Int = .max) throws(StoreError) -> [AuditRecord] {
        guard let data = FileManager.default.contents(atPath: auditPath) else { return [] }
        do throws(AuditJournal.Problem) {
            return Array(try AuditJournal.history([UInt8](data)).suffix(limit))
        } catch {
            throw corrupt(error)
        }
    }

    private static func posixError(_ message: String) -> StoreError {
        StoreError(.unavailable, message: "\(message): \(String(cString: strerror(errno)))")
    }
}
