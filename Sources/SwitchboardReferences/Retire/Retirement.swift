public import Switchboard
import Foundation
import SwitchboardCodegen
import SwiftParser
import SwiftSyntax
import YAML

/// What `switchboard retire KEY --keep VALUE` changes: the definition's YAML block removed, the key's entries in
/// override files removed, and the Swift code rewritten so every read of the key becomes the kept value, with
/// `if`, `guard` and ternaries folded where the value decides them; and what it could not rewrite, with where.
///
/// A plan is made first and changes nothing: ``diff`` shows it, ``write()`` writes every changed file
/// atomically. Making the plan refuses a key another definition `requires`, a value that does not fit the
/// definition, a definition that is not in a YAML file, and an edit after which the definitions would not load.
///
/// ```swift
/// let plan = try Retirement.plan(key: "checkout.new_flow", keep: "true", registry: registry,
///                                definitionFiles: registry.files, overrideFiles: [], sources: files)
/// print(plan.diff)
/// try plan.write()
/// ```
public struct Retirement: Sendable {
    /// One file's text before and after.
    public struct FileChange: Sendable, Hashable {
        /// The file's path, as given.
        public var path: String
        /// The text now.
        public var before: String
        /// The text once retired.
        public var after: String
    }

    /// A place the rewrite leaves as it is, or one worth a look, and why.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// Where.
        public var position: SourcePosition
        /// Why: "`observe(…)` does not read the value: remove it by hand".
        public var reason: String

        /// `file:line:column: reason`.
        public var description: String { "\(position): \(reason)" }
    }

    /// Why a key cannot be retired.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// What stops it.
        public var message: String
        /// What to do.
        public var hint: String?

        /// Creates a refusal.
        public init(message: String, hint: String?) {
            self.message = message
            self.hint = hint
        }

        /// The message and hint on one line.
        public var description: String { message + (hint.map { " (\($0))" } ?? "") }
    }

    /// The retired key.
    public var key: String
    /// The value the code keeps.
    public var kept: Value
    /// The files that change: the definition's file, override files, Swift files; in that order.
    public var changes: [FileChange]
    /// The references left as they were, in file order.
    public var leftovers: [Note]
    /// Rewrites worth a look (a `guard` that now always exits).
    public var notes: [Note]

    /// The plan for retiring `key`, keeping the value `keep` (text as `switchboard set` takes it: a variant's
    /// name, or a value of the definition's type).
    ///
    /// - Parameters:
    ///   - registry: The definitions, loaded without errors.
    ///   - definitionFiles: Every definitions file the registry was loaded from (the result is loaded again from
    ///     them to check that it still loads).
    ///   - overrideFiles: Override files to remove the key from (those that do not exist are skipped).
    ///   - sources: The Swift files to rewrite.
    public static func plan(
        key: String, keep: String, registry: Registry, definitionFiles: [String], overrideFiles: [String],
        sources: [String]
    ) throws(Refusal) -> Retirement {
        guard let definition = registry[key] else {
            let suggestion = registry.suggestions(for: key).first
            throw Refusal(message: "no definition has the key \(key)",
                          hint: suggestion.map { "did you mean \($0)?" } ?? "check the key with `switchboard list`")
        }
        let dependents = registry.definitions.filter { other in
            other.targeting?.prerequisites.contains { $0.key == key } ?? false
        }
        if !dependents.isEmpty {
            throw Refusal(message: "\(key) is required by " + dependents.map(\.key).joined(separator: ", "),
                          hint: "retire or edit the definitions that `requires` it first")
        }
        let kept: Value
        switch definition.fit(text: keep) {
        case .success(let value): kept = value
        case .failure(let problem):
            let variants = definition.variants.map(\.name)
            throw Refusal(message: "--keep \(keep): \(problem.message)", hint: problem.hint ?? (variants.isEmpty
                ? "--keep takes what the code should get from now on, \(definition.type.withArticle)"
                : "--keep takes a variant's name (\(variants.joined(separator: ", "))) or its value"))
        }
        var changes: [FileChange] = []
        changes.append(try definitionChange(definition, registry: registry, definitionFiles: definitionFiles))
        changes += overrideChanges(key: key, files: overrideFiles)
        let swift = SwiftRetirement(
            literal: AccessorGenerator.retiredLiteral(kept, of: definition, typed: false),
            typedLiteral: AccessorGenerator.retiredLiteral(kept, of: definition, typed: true),
            bool: kept.boolValue)
        let rewrite = rewriteSources(sources, key: key, registry: registry, swift: swift)
        return Retirement(key: key, kept: kept, changes: changes + rewrite.changes, leftovers: rewrite.leftovers,
                          notes: rewrite.notes)
    }

    /// Every change as a unified diff, file after file.
    public var diff: String {
        changes.map { UnifiedDiff.render(path: $0.path, before: $0.before, after: $0.after) }.joined()
    }

    /// Writes every changed file atomically (a crash leaves each file whole, old or new).
    public func write() throws {
        for change in changes {
            try AtomicFile.write(Array(change.after.utf8), to: change.path)
        }
    }

    // MARK: - Definitions and overrides

    private static func definitionChange(
        _ definition: Definition, registry: Registry, definitionFiles: [String]
    ) throws(Refusal) -> FileChange {
        let file = definition.location.file
        guard file.hasSuffix(".yaml") || file.hasSuffix(".yml") else {
            throw Refusal(message: "\(definition.key) is defined in \(file), not a Switchboard YAML file",
                          hint: "remove it from that file by hand")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Refusal(message: "cannot read \(file)", hint: nil)
        }
        let before = String(decoding: data, as: UTF8.self)
        guard let after = YAMLEntryRemoval.remove(from: before, line: definition.location.line,
                                                  column: definition.location.column, emptiedParent: .remove)
        else {
            throw Refusal(message: "\(definition.location): \(definition.key) is not written in block style",
                          hint: "remove it by hand")
        }
        // The definitions must still load, without the key and without a new error.
        let sources = definitionFiles.map { path -> (path: String, bytes: [UInt8]) in
            path == file ? (path, Array(after.utf8)) : (path, FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? [])
        }
        let reloaded = DefinitionLoader.load(sources: sources)
        if let error = reloaded.diagnostics.first(where: \.isError) {
            throw Refusal(message: "without \(definition.key), \(file) would not load: \(error.message)",
                          hint: "remove it by hand")
        }
        if reloaded.registry[definition.key] != nil || reloaded.registry.count != registry.count - 1 {
            throw Refusal(message: "removing \(definition.key) from \(file) would change other definitions",
                          hint: "remove it by hand")
        }
        return FileChange(path: file, before: before, after: after)
    }

    private static func overrideChanges(key: String, files: [String]) -> [FileChange] {
        files.compactMap { path in
            let layer = FileOverrides.load(paths: [path])
            guard let entry = layer.entries[key], let data = FileManager.default.contents(atPath: path) else {
                return nil
            }
            let before = String(decoding: data, as: UTF8.self)
            guard let after = YAMLEntryRemoval.remove(from: before, line: entry.location.line,
                                                      column: entry.location.column, emptiedParent: .writeEmpty)
            else { return nil }
            return FileChange(path: path, before: before, after: after)
        }
    }

    // MARK: - Swift

    private static func rewriteSources(
        _ files: [String], key: String, registry: Registry, swift: SwiftRetirement
    ) -> (changes: [FileChange], leftovers: [Note], notes: [Note]) {
        let scanner = ReferenceScanner(registry: registry)
        var texts: [String: String] = [:]
        var originals: [String: String] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            texts[file] = String(decoding: data, as: UTF8.self)
        }
        // Each with the text its positions are in: a pass reads what the passes before it wrote.
        var leftovers: [String: (items: [SwiftRetirement.Leftover], text: String)] = [:]
        var notes: [(item: SwiftRetirement.Leftover, text: String)] = []
        // Passes until one changes nothing: a fold can expose another (an `if` in an `if`, a `let` moved).
        var pending = Set(texts.keys)
        for _ in 0..<16 where !pending.isEmpty {
            let scan = scanner.scan(sources: files.compactMap { file in texts[file].map { (file, $0) } })
            let byFile = Dictionary(grouping: scan.references.filter { $0.key == key }, by: \.position.file)
            var changed: Set<String> = []
            for file in pending {
                guard let references = byFile[file], let text = texts[file] else {
                    leftovers[file] = nil
                    continue
                }
                let pass = swift.pass(file: file, text: text, references: references)
                leftovers[file] = (pass.leftovers, text)
                notes += pass.notes.map { ($0, text) }
                if pass.changed {
                    if originals[file] == nil { originals[file] = text }
                    texts[file] = pass.text
                    changed.insert(file)
                }
            }
            pending = changed
        }
        var changes: [FileChange] = []
        for file in files {
            guard let before = originals[file], let after = texts[file] else { continue }
            if Parser.parse(source: after).hasError {
                // Never write code that no longer parses: leave the file and say so.
                leftovers[file] = ([SwiftRetirement.Leftover(
                    position: SourcePosition(file: file, line: 1, column: 1),
                    reason: "the rewrite would not parse, so this file is left as it was: edit it by hand")], before)
                continue
            }
            changes.append(FileChange(path: file, before: before, after: after))
        }
        // Positions as the file on disk has them (a dry run writes nothing, and the user opens that file): a line
        // of a rewritten text is the original's line it was kept from, or the line its change replaced.
        let convert = { (leftover: SwiftRetirement.Leftover, text: String) -> Note in
            var position = leftover.position
            if let original = originals[position.file], original != text {
                position.line = UnifiedDiff.originalLine(of: position.line, in: text, before: original)
            }
            return Note(position: position, reason: leftover.reason)
        }
        var left = leftovers.values.flatMap { entry in entry.items.map { convert($0, entry.text) } }
        // A `FlagKey` declaration left in place is read wherever its name is used: list those places too, or the
        // code would read a key no file defines and quietly get the declared default.
        for entry in leftovers.values {
            for leftover in entry.items {
                guard let name = leftover.declaredName else { continue }
                let declared = convert(leftover, entry.text).position
                for file in files {
                    guard let text = texts[file] else { continue }
                    for use in SwiftRetirement.uses(of: name, file: file, text: text) {
                        let place = SwiftRetirement.Leftover(
                            position: use, reason: "uses `\(name)`, the FlagKey declared at \(declared): replace it "
                                + "with the kept value by hand")
                        left.append(convert(place, text))
                    }
                }
            }
        }
        return (changes, left.sorted { $0.position < $1.position },
                Array(Set(notes.map(convert))).sorted { $0.position < $1.position })
    }
}
