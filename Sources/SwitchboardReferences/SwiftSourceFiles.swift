import Foundation

/// The Swift files to scan.
public enum SwiftSourceFiles {
    /// Every `.swift` file at or below the paths (a path may be a file), sorted, without hidden folders
    /// (`.build`) or duplicates. Paths are kept as given, so a relative path gives relative files.
    public static func find(in paths: [String]) -> [String] {
        var files: Set<String> = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                if path.hasSuffix(".swift") { files.insert(path) }
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else { continue }
            while let relative = enumerator.nextObject() as? String {
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                    continue
                }
                guard relative.hasSuffix(".swift") else { continue }
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                files.insert(base + "/" + relative)
            }
        }
        return files.sorted()
    }
}
