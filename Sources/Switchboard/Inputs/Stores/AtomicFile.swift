#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files written so that a crash or a SIGKILL at any moment leaves the old file or the new one, never a mix:
/// the file store's state file and a remote board's device-local overrides are written here, and nowhere else.
package enum AtomicFile {
    /// Why a write failed: what was being done, and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        /// What was being done: `create /a/b.json.tmp`, `write /a/b.json`.
        package var action: String
        /// The system's reason (`strerror`).
        package var reason: String

        package var description: String { "cannot \(action): \(reason)" }
    }

    /// Writes `bytes` as the file at `path`: into `path.tmp`, synced to the disk, renamed over `path`, and the
    /// folder synced so that the rename survives a crash too. The folder must exist; a folder at `path` is refused
    /// as such. On failure the temporary file is removed and `path` is as it was. One writer at a time per path: the
    /// file store writes under its lock, and a remote board owns its cache folder.
    package static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw Failure(action: "write \(path)", reason: "it is a folder, not a file")
        }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create \(temporary)") }
        var ok = writeAll(fd, bytes) && syncData(fd)
        close(fd)
        ok = ok && rename(temporary, path) == 0
        guard ok else {
            let error = failure("write \(path)")
            unlink(temporary)
            throw error
        }
        let folder = open(FilePaths.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Writes all of `bytes` to `fd`, retrying after interrupts and short writes; `false` on an error (`errno`
    /// says which).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Flushes a file's data (and the metadata needed to read it back) to the disk.
    package static func syncData(_ fd: Int32) -> Bool {
        #if os(Linux)
        fdatasync(fd) == 0
        #else
        fsync(fd) == 0
        #endif
    }

    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #else
    private static let systemWrite = Darwin.write
    #endif

    private static func failure(_ action: String) -> Failure {
        Failure(action: action, reason: String(cString: strerror(errno)))
    }
}
