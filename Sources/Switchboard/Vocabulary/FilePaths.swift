/// Paths split and joined as text, the one place that does it. Foundation's `NSString` path methods trap on some
/// short relative paths on Linux (`deletingLastPathComponent` of `"y"` from a command line argument), so
/// Switchboard never calls them on a path a user gave. Only `/` separates; nothing is looked up on disk.
package enum FilePaths {
    /// The folder holding `path`'s last component, ignoring trailing slashes: `a/b.json` → `a`, `y` and `./y` →
    /// `.`, `/b` → `/`, and `.` for an empty path.
    package static func directory(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let directory = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return directory.isEmpty ? "/" : directory
    }

    /// The last component, ignoring trailing slashes: `a/b.json` → `b.json`, `a/` → `a`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// A file name without its extension: `b.json` → `b`; a name with no dot but a leading one (`.env`) is kept.
    package static func deletingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `directory` and `name` joined by one `/`: `("a/", "b")` → `a/b`, `(".", "b")` → `./b`, `("", "b")` → `b`.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `path` without `.` components and repeated slashes, each `..` taking away the component before it (as text:
    /// symbolic links are not followed): `flags/..` → `.`, `./flags/` → `flags`, `/..` → `/`.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part != ".." {
                parts.append(part)
            } else if let last = parts.last, last != ".." {
                parts.removeLast()
            } else if !absolute {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The folder a path's parent is: `flags` → `.`, `.` → `..`, `app/flags` → `app`.
    package static func parent(of path: String) -> String {
        normalized(path + "/..")
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
