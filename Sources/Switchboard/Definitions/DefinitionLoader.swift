import Foundation
import YAML

/// What loading a definitions directory produced: the registry of every valid definition and every diagnostic,
/// in file and line order.
public struct LoadReport: Sendable {
    /// The valid definitions. Use it only when ``hasErrors`` is false, unless partial results are wanted.
    public var registry: Registry
    /// Errors and warnings, in file and line order.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }
    /// Only the errors.
    public var errors: [Diagnostic] { diagnostics.filter(\.isError) }
    /// Only the warnings.
    public var warnings: [Diagnostic] { diagnostics.filter { !$0.isError } }
}

/// Definitions could not be loaded; carries every diagnostic.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic of the load, errors and warnings.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Each diagnostic on its own line(s).
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

/// Reads definitions files into a ``Registry``.
///
/// A directory load reads every `*.yaml` and `*.yml` file below the directory, in byte order of their relative
/// paths, skipping hidden folders, `environments/` (override files) and `*.overrides.yaml` files.
public enum DefinitionLoader {
    /// Loads every definitions file below a directory.
    public static func load(directory: String, today: Day = .today()) -> LoadReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            let diagnostic = Diagnostic.error(
                at: nil, "definitions directory '\(directory)' does not exist",
                hint: "run in a project with a flags/ folder, or pass --flags DIR")
            return LoadReport(registry: .empty, diagnostics: [diagnostic])
        }
        let files = definitionFiles(in: directory)
        var sources: [(path: String, bytes: [UInt8])] = []
        var diagnostics: [Diagnostic] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                diagnostics.append(.error(at: nil, "cannot read \(path)"))
                continue
            }
            sources.append((path, [UInt8](data)))
        }
        var report = load(sources: sources, today: today)
        report.diagnostics = Diagnostic.sorted(diagnostics + report.diagnostics)
        return report
    }

    /// Loads definitions from files already in memory, in the order given.
    public static func load(sources: [(path: String, bytes: [UInt8])], today: Day = .today()) -> LoadReport {
        var definitions: [Definition] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            let document = YAMLParser.parse(source.bytes, file: source.path)
            var parser = DefinitionParser(file: source.path, today: today)
            parser.parse(document)
            definitions.append(contentsOf: parser.definitions)
            diagnostics.append(contentsOf: parser.diagnostics)
        }
        let (unique, conflicts) = checkAcrossFiles(definitions)
        diagnostics.append(contentsOf: conflicts)
        let registry = Registry(definitions: unique, files: sources.map(\.path))
        return LoadReport(registry: registry, diagnostics: Diagnostic.sorted(diagnostics))
    }

    /// Finds keys defined twice, environment variable names shared by two keys, and `renamed_from` entries that
    /// name a live key; keeps the first of each.
    static func checkAcrossFiles(_ definitions: [Definition]) -> ([Definition], [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        var variables: [String: (key: String, location: SourceLocation)] = [:]
        var unique: [Definition] = []
        unique.reserveCapacity(definitions.count)
        for definition in definitions {
            if let first = seen[definition.key] {
                diagnostics.append(.error(
                    at: definition.location, "\(definition.key) is already defined at \(first)",
                    hint: "a key is defined once across all files; rename or remove one of them"))
                continue
            }
            let variable = KeySyntax.environmentVariable(for: definition.key)
            if let other = variables[variable] {
                diagnostics.append(.error(
                    at: definition.location,
                    "\(definition.key) and \(other.key) (\(other.location)) map to the same environment variable \(variable)",
                    hint: "rename one: '-' and '_' are the same in a variable name"))
                continue
            }
            seen[definition.key] = definition.location
            variables[variable] = (definition.key, definition.location)
            unique.append(definition)
        }
        var renamedBy: [String: String] = [:]
        for definition in unique {
            for old in definition.renamedFrom {
                if seen[old] != nil {
                    diagnostics.append(.error(
                        at: definition.location, "\(definition.key) is renamed from \(old), which is still defined",
                        hint: "remove \(old) from renamed_from, or delete its definition"))
                } else if let other = renamedBy[old] {
                    diagnostics.append(.error(
                        at: definition.location, "both \(other) and \(definition.key) are renamed from \(old)",
                        hint: "an old key can carry its overrides to one new key only"))
                } else {
                    renamedBy[old] = definition.key
                }
            }
        }
        return (unique, diagnostics)
    }

    /// The definitions files below a directory, in byte order of their relative paths.
    public static func definitionFiles(in directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var relative: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "environments" {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
            if name.hasSuffix(".overrides.yaml") || name.hasSuffix(".overrides.yml") { continue }
            if name.contains(".flagd.") { continue }
            relative.append(path)
        }
        relative.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return relative.map { prefix + $0 }
    }
}
