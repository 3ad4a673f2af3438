#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines entered so far, oldest first, at most `limit` of them.
struct History: Equatable, Sendable {
    /// The most entries kept; older ones are dropped first. Zero or less keeps none.
    let limit: Int
    /// The entries, oldest first.
    private(set) var entries: [String]

    /// Creates a history holding the last `limit` of `entries`.
    init(limit: Int, entries: [String] = []) {
        self.limit = max(limit, 0)
        self.entries = Array(entries.suffix(self.limit))
    }

    /// Adds `line` unless it is blank, the same as the newest entry, or holds a line break (which the
    /// file, one entry per line, can't keep), dropping the oldest entry when full. Returns whether it was
    /// added, which is also whether it should be saved.
    @discardableResult
    mutating func add(_ line: String) -> Bool {
        let hasLineBreak = line.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
        guard limit > 0, !line.allSatisfy(\.isWhitespace), !hasLineBreak, line != entries.last else {
            return false
        }
        entries.append(line)
        if entries.count > limit {
            entries.removeFirst(entries.count - limit)
        }
        return true
    }
}

/// The history file: one entry per line, newest last, readable and writable by the owner only (0600),
/// since a debug session's lines may hold flag values or user ids.
///
/// Lines are appended as they are accepted, so two sessions at once both keep their lines. When an
/// append would take the file past `limit` lines, the file is re-read, trimmed to the newest `limit`
/// lines and replaced atomically (write a temporary file, then rename), so it never grows without bound.
/// Failures are ignored: a REPL should go on working when its history cannot be saved.
struct HistoryFile: Sendable {
    /// The file's path.
    let path: String
    /// The most lines the file keeps.
    let limit: Int
    /// How many lines the file holds, as far as this process knows; decides when to trim.
    private var lineCount = 0

    /// Describes the history file at `path`, holding at most `limit` lines. Nothing is read yet.
    init(path: String, limit: Int) {
        self.path = path
        self.limit = max(limit, 0)
    }

    /// Reads the file's last `limit` non-empty lines, oldest first; no file reads as no lines. A file
    /// longer than `limit` is trimmed on disk too.
    mutating func load() -> [String] {
        guard let lines = Self.readLines(path) else { return [] }
        let kept = Array(lines.suffix(limit))
        if lines.count > limit {
            _ = Self.replace(path, with: kept)
        }
        lineCount = kept.count
        return kept
    }

    /// Adds `line` to the end of the file, trimming the file when it would exceed `limit` lines.
    mutating func append(_ line: String) {
        guard limit > 0 else { return }
        if lineCount + 1 > limit {
            // Re-read rather than write our own entries, so lines other sessions appended survive.
            let lines = Array(((Self.readLines(path) ?? []) + [line]).suffix(limit))
            if Self.replace(path, with: lines) {
                lineCount = lines.count
            }
            return
        }
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // A file made by an older version, or by hand, may be more open than it should be.
        fchmod(descriptor, 0o600)
        var bytes = Array(line.utf8) + [UInt8(ascii: "\n")]
        // A file edited by hand may lack its final newline; don't glue our line onto its last one.
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") {
                bytes.insert(UInt8(ascii: "\n"), at: 0)
            }
        }
        if RawIO.writeAll(bytes, to: descriptor) {
            lineCount += 1
        }
    }

    /// The non-empty lines of the file at `path` (a trailing CR is dropped, bytes that aren't UTF-8 are
    /// replaced), or `nil` when it can't be read.
    static func readLines(_ path: String) -> [String]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let bytes = RawIO.readAll(from: descriptor) else { return nil }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            return text.isEmpty ? nil : text
        }
    }

    /// Replaces the file at `path` with `lines` atomically, mode 0600. Returns whether it worked.
    static func replace(_ path: String, with lines: [String]) -> Bool {
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let written = RawIO.writeAll(bytes, to: descriptor)
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
