import Foundation
import Glibc

/// The text of the file at `path`, or `nil` when it can't be read.
func contents(of path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

/// Writes `text` to `path`, replacing it, with the given mode.
func writeFile(_ text: String, to path: String, mode: mode_t = 0o644) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, mode)
}

/// The permission bits of the file at `path`.
func permissions(of path: String) -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return status.st_mode & 0o7777
}
