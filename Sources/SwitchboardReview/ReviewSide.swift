import Foundation
package import Switchboard

/// One side of a review, loaded: its definitions and tracked override files, and a snapshot that evaluates them
/// with the real engine (no environment variables, no runtime store: impact is what the files say).
package struct ReviewSide: Sendable {
    /// What the report calls this side: a revision, `"WORKTREE"`, or a folder.
    package var label: String
    /// The environment whose override file applies, if any.
    package var environmentName: String?
    /// The definitions.
    package var registry: Registry
    /// The snapshot that evaluates the definitions as written (before any schedule step) with the side's override
    /// files.
    package var snapshot: Snapshot
    /// The side's override files.
    package var files: FileOverrides
    /// The flags some definition requires that this side does not define; the definitions that require them
    /// are not in ``registry`` (the loader rejects them).
    package var missingPrerequisites: Set<String>

    /// Builds a side from definitions and override files already read.
    ///
    /// - Throws: ``ReviewError`` naming the side and its first error when the definitions or the override file
    ///   do not validate.
    package init(
        label: String, environmentName: String?, definitions: [(path: String, bytes: [UInt8])],
        overrides: [(path: String, bytes: [UInt8])], today: Day = .today()
    ) throws(ReviewError) {
        let report = DefinitionLoader.load(sources: definitions, today: today)
        let files = FileOverrides.load(sources: overrides)
        // A requirement of a flag this side no longer defines is a risk the review names, not a reason to stop:
        // the definition that requires it is left out, as the loader leaves it out.
        let prefix = "requires unknown flag '"
        var missing: Set<String> = []
        var errors: [Diagnostic] = []
        for diagnostic in Diagnostic.sorted(report.diagnostics + files.diagnostics) where diagnostic.isError {
            if diagnostic.message.hasPrefix(prefix), diagnostic.message.hasSuffix("'") {
                missing.insert(String(diagnostic.message.dropFirst(prefix.count).dropLast()))
            } else {
                errors.append(diagnostic)
            }
        }
        if let first = errors.first {
            let place = first.location.map { "\($0): " } ?? ""
            throw ReviewError("\(label) does not validate: \(place)\(first.message)",
                              hint: first.hint ?? "switchboard validate lists every problem")
        }
        self.label = label
        self.environmentName = environmentName
        missingPrerequisites = missing
        registry = report.registry
        self.files = files
        snapshot = Snapshot(registry: report.registry, files: files)
    }

    /// The snapshot that evaluates the side as it is in force at `time` (seconds since the epoch): each schedule's
    /// step then applied.
    package func snapshot(at time: Double) -> Snapshot {
        registry.scheduled.isEmpty ? snapshot : Snapshot(registry: registry.inForce(at: time), files: files)
    }

    /// Loads a side from a folder or a git revision, with `environmentName`'s override file
    /// (`environments/NAME.yaml` in the definitions folder), which must exist when named.
    ///
    /// - Throws: ``ReviewError`` outside a repository, for an unknown revision, a missing environment file, or
    ///   definitions that do not validate.
    package static func load(_ source: ReviewSource, environmentName: String?) throws(ReviewError) -> ReviewSide {
        let environmentFile = environmentName.map { "environments/\($0).yaml" }
        var definitions: [(path: String, bytes: [UInt8])] = []
        var overrides: [(path: String, bytes: [UInt8])] = []
        switch source {
        case .folder(let folder, let label):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ReviewError("\(label): definitions directory '\(folder)' does not exist",
                                  hint: "pass --flags DIR, or --from DIR --to DIR")
            }
            for path in DefinitionLoader.definitionFiles(in: folder) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ReviewError("\(label): cannot read \(path)")
                }
                definitions.append((path, [UInt8](data)))
            }
            if let environmentFile {
                let path = folder + "/" + environmentFile
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ReviewError("\(label): override file \(path) does not exist",
                                      hint: "create it, or check the environment name")
                }
                overrides.append((path, [UInt8](data)))
            }
        case .revision(let revision, let folder):
            let repository = try GitRepository(containing: folder)
            let commit = try repository.commit(revision)
            let prefix = try repository.prefix()
            let root = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
            guard !root.isEmpty else {
                throw ReviewError("the definitions folder \(folder) is the repository's top folder",
                                  hint: "keep the definitions in a folder of the repository (flags/)")
            }
            let files = try repository.files(at: commit, under: root)
            if files.isEmpty {
                throw ReviewError("\(revision) has no definitions folder \(root)",
                                  hint: "check the revision, or pass --flags DIR")
            }
            for file in files {
                let relative = String(file.path.dropFirst(root.count + 1))
                let components = relative.split(separator: "/")
                if relative == environmentFile { overrides.append(file) }
                guard !components.contains(where: { $0.hasPrefix(".") || $0 == "environments" }),
                      let name = components.last, DefinitionLoader.isDefinitionFileName(String(name))
                else { continue }
                definitions.append(file)
            }
            if let environmentFile, overrides.isEmpty {
                throw ReviewError("\(revision) has no override file \(root)/\(environmentFile)",
                                  hint: "check the environment name")
            }
        }
        return try ReviewSide(label: source.label, environmentName: environmentName, definitions: definitions,
                              overrides: overrides)
    }
}
