#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's identity and version, from `stat`: changes whenever the file is replaced or modified.
package struct FileFingerprint: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// Stats a path; `nil` when it does not exist.
    package init?(path: String) {
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

    /// Whether both fingerprints are of the same file, in any version of it.
    func isSameFile(as other: FileFingerprint) -> Bool {
        device == other.device && inode == other.inode
    }
}
