import Foundation
package import YAML

/// The file layer: override files of the form `overrides: { key: value }`.
///
/// The files, lowest precedence first:
/// 1. `<flags>/environments/<name>.yaml` when an environment name is given (`--env`, `SWITCHBOARD_ENV`);
/// 2. `<flags>/local.overrides.yaml`, a developer's own untracked file, when it exists;
/// 3. any extra files given explicitly, in order.
///
/// A later file's value for a key replaces an earlier one's.
package struct FileOverrides: Sendable {
    /// One `key: value` entry, kept as its YAML node so it can be typed by the key's definition.
    package struct WrittenOverride: Sendable {
        /// The key.
        package var key: String
        /// The value as written.
        package var node: Node
        /// Where the key is written.
        package var location: SourceLocation
    }

    /// Entries by key; the last file's entry wins.
    package var entries: [String: WrittenOverride] = [:]
    /// Entries that a later file's entry for the same key replaces, oldest first: they apply when the later value
    /// does not fit the definition.
    package var earlierEntries: [String: [WrittenOverride]] = [:]
    /// Problems found while reading the files (syntax errors are errors; the rest are warnings).
    package var diagnostics: [Diagnostic] = []
    /// The files read, lowest precedence first.
    package var files: [String] = []

    /// Creates an empty layer.
    package init() {}

    /// The override files for a definitions directory, lowest precedence first, whether or not they exist.
    package static func paths(flagsDirectory: String, environment: String?, extra: [String] = []) -> [String] {
        var paths: [String] = []
        if let environment, !environment.isEmpty {
            paths.append("\(flagsDirectory)/environments/\(environment).yaml")
        }
        paths.append("\(flagsDirectory)/local.overrides.yaml")
        return paths + extra
    }

    /// Reads the files that exist. An environment file that is named but missing is an error.
    package static func load(paths: [String], required: Set<String> = []) -> FileOverrides {
        var layer = FileOverrides()
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                if required.contains(path) {
                    layer.diagnostics.append(.error(at: nil, "override file \(path) does not exist",
                                                    hint: "create it, or check the environment name"))
                }
                continue
            }
            layer.files.append(path)
            layer.read(YAMLParser.parse([UInt8](data), file: path), path: path)
        }
        return layer
    }

    /// Reads override files already in memory (a git revision's, say), lowest precedence first.
    package static func load(sources: [(path: String, bytes: [UInt8])]) -> FileOverrides {
        var layer = FileOverrides()
        for (path, bytes) in sources {
            layer.files.append(path)
            layer.read(YAMLParser.parse(bytes, file: path), path: path)
        }
        return layer
    }

    mutating func read(_ document: YAMLDocument, path: String) {
        diagnostics.append(contentsOf: document.problems.map(Diagnostic.init))
        guard let root = document.root else { return }
        guard let pairs = root.pairs else {
            if case .scalar(let scalar) = root.content, case .null = scalar.value { return }
            diagnostics.append(.error(at: root.location, "expected a mapping with `overrides:`, found \(root.kindDescription)",
                                      hint: "write `overrides:` followed by `key: value` lines"))
            return
        }
        for pair in pairs {
            let name = pair.key.scalar?.text ?? ""
            guard name == "overrides" else {
                let hint = Suggestions.nearest(to: name, in: ["overrides"]).map(Message.didYouMean(one:))
                    ?? "an override file has only `overrides:`"
                diagnostics.append(.error(at: pair.key.location, "unknown field '\(name)' in an override file", hint: hint))
                continue
            }
            if case .scalar(let scalar) = pair.value.content, case .null = scalar.value { continue }
            guard let entries = pair.value.pairs else {
                diagnostics.append(.error(at: pair.value.location,
                                          "`overrides` must be a mapping of keys to values, found \(pair.value.kindDescription)"))
                continue
            }
            for entry in entries {
                // Any text: flagd flags keep their own keys (camelCase included); a key without a definition is
                // reported when the layer is applied.
                guard let key = entry.key.scalar?.text, !key.isEmpty else {
                    diagnostics.append(.error(at: entry.key.location,
                                              "expected a key, found \(entry.key.kindDescription)"))
                    continue
                }
                if let earlier = self.entries[key] { earlierEntries[key, default: []].append(earlier) }
                self.entries[key] = WrittenOverride(key: key, node: entry.value, location: entry.key.location)
            }
        }
    }

    /// Every override file of a definitions directory: `environments/*.yaml` in name order, then
    /// `local.overrides.yaml`.
    package static func allPaths(flagsDirectory: String) -> [String] {
        let environments = flagsDirectory + "/environments"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: environments)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { environments + "/" + $0 }
            + [flagsDirectory + "/local.overrides.yaml"]
    }
}
