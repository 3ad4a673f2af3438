public import Foundation

/// Everything a board is built from, resolved once: the definitions (a directory, or text given in code), the
/// override files in precedence order, the environment of the env layer, and the runtime store.
///
/// `SWITCHBOARD_ENV`, `SWITCHBOARD_STATE` and `SWITCHBOARD_STATE_COMPACTION_BYTES` are read here and nowhere
/// else. The CLI, `validate`, the REPL and the server all open their boards through this type, so they agree on
/// which files and store apply.
public struct BoardInputs: Sendable {
    /// Where the definitions come from.
    public enum Definitions: Sendable {
        /// Every definitions file in a directory.
        case directory(String)
        /// Files given as text, for tests and tools: `(path, YAML)`.
        case sources([(path: String, text: String)])
    }

    /// Where the definitions come from.
    public let definitions: Definitions
    /// The environment name selecting `<flags>/environments/<name>.yaml` (given, or `SWITCHBOARD_ENV`).
    public let environmentName: String?
    /// The override files, lowest precedence first, whether or not they exist.
    public let overrideFiles: [String]
    /// The override files that must exist: the selected environment's and those named explicitly.
    public let requiredOverrideFiles: Set<String>
    /// The environment variables of the env layer.
    public let environment: [String: String]
    /// The runtime store.
    public let store: any RuntimeStore
    /// Whether the store is the file store beside the definitions directory, named by nothing else (no store,
    /// state path or `SWITCHBOARD_STATE`): then a directory that is not there means the store is not the one meant.
    package let storeFollowsDirectory: Bool

    /// Resolves a board's inputs from a definitions directory: `<directory>/environments/<name>.yaml` and
    /// `local.overrides.yaml` beside it, then `overrideFiles`.
    ///
    /// - Parameters:
    ///   - directory: the definitions directory.
    ///   - environmentName: selects `<flags>/environments/<name>.yaml`; defaults to `SWITCHBOARD_ENV`.
    ///   - overrideFiles: extra override files, applied after the environment file and `local.overrides.yaml`.
    ///   - statePath: the file store's path; defaults to `SWITCHBOARD_STATE`, then `.switchboard/overrides.json`
    ///     beside the definitions directory. Unused when `store` is given.
    ///   - environment: the variables of the env layer (and of `SWITCHBOARD_ENV` / `SWITCHBOARD_STATE`).
    ///   - store: the runtime store; `nil` for the file store at `statePath`.
    public init(
        directory: String, environmentName: String? = nil, overrideFiles: [String] = [], statePath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, store: (any RuntimeStore)? = nil
    ) {
        self.init(definitions: .directory(directory), environmentName: environmentName, overrideFiles: overrideFiles,
                  statePath: statePath, environment: environment, store: store)
    }

    /// Resolves a board's inputs from definitions in a directory or given as text.
    ///
    /// - Parameters:
    ///   - definitions: a definitions directory, or definitions given as text.
    ///   - environmentName: selects `<flags>/environments/<name>.yaml`; defaults to `SWITCHBOARD_ENV`.
    ///   - extraFiles: extra override files, applied after the environment file and `local.overrides.yaml`.
    ///   - statePath: the file store's path; defaults to `SWITCHBOARD_STATE`, then `.switchboard/overrides.json`
    ///     beside the definitions directory. Unused when `store` is given.
    ///   - environment: the variables of the env layer (and of `SWITCHBOARD_ENV` / `SWITCHBOARD_STATE`).
    ///   - store: the runtime store; `nil` for the file store at `statePath`.
    public init(
        definitions: Definitions, environmentName: String? = nil, overrideFiles extraFiles: [String] = [],
        statePath: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        store: (any RuntimeStore)? = nil
    ) {
        self.definitions = definitions
        self.environment = environment
        let environmentName = environmentName ?? environment["SWITCHBOARD_ENV"]
        self.environmentName = environmentName
        let directory = definitions.directory
        if let directory {
            overrideFiles = FileOverrides.paths(flagsDirectory: directory, environment: environmentName,
                                                extra: extraFiles)
        } else {
            overrideFiles = extraFiles
        }
        var required = Set(extraFiles)
        if let environmentName, !environmentName.isEmpty, directory != nil { required.insert(overrideFiles[0]) }
        requiredOverrideFiles = required
        storeFollowsDirectory = store == nil && statePath == nil && environment["SWITCHBOARD_STATE"] == nil
            && directory != nil
        if let store {
            self.store = store
        } else {
            let statePath = statePath ?? environment["SWITCHBOARD_STATE"]
                ?? FileStore.defaultPath(flagsDirectory: directory ?? ".")
            let compaction = environment["SWITCHBOARD_STATE_COMPACTION_BYTES"].flatMap { Int($0) }
            self.store = FileStore(path: statePath, compactionBytes: compaction)
        }
    }

    /// The definitions directory, when the definitions come from one.
    public var directory: String? { definitions.directory }

    /// Definitions and override files read at one moment, with the fingerprints of every file read.
    package struct Loaded: Sendable {
        /// The definitions.
        package var report: LoadReport
        /// The override files.
        package var files: FileOverrides
        /// Every diagnostic of both, in file and line order.
        package var diagnostics: [Diagnostic]
        /// The files read and their fingerprints when reading began.
        package var fingerprints: [String: FileFingerprint]

        /// Whether the definitions or an override file have errors.
        package var hasErrors: Bool { diagnostics.contains(where: \.isError) }
    }

    /// Reads the definitions and the override files; `now` is the time schedules are checked against (default:
    /// the clock's).
    package func load(now: Double? = nil) -> Loaded {
        // Fingerprints first: an edit landing while the files are read then shows as a change at the next check.
        let before = fingerprints(of: watchedFiles())
        let report: LoadReport = switch definitions {
        case .directory(let directory):
            DefinitionLoader.load(directory: directory, today: Self.day(at: now), now: now)
        case .sources(let sources):
            DefinitionLoader.load(sources: sources.map { ($0.path, Array($0.text.utf8)) }, today: Self.day(at: now),
                                  now: now)
        }
        let files = FileOverrides.load(paths: overrideFiles, required: requiredOverrideFiles)
        let read = Set(report.registry.files + files.files)
        return Loaded(report: report, files: files,
                      diagnostics: Diagnostic.sorted(report.diagnostics + files.diagnostics),
                      fingerprints: before.filter { read.contains($0.key) })
    }

    /// A digest of every definitions and override file's path and bytes now: two equal digests, the same inputs,
    /// whatever the files' times. `nil` for definitions given as sources, which no one edits.
    package func contentDigest() -> Int? {
        guard directory != nil else { return nil }
        var hasher = Hasher()
        for path in watchedFiles().sorted() {
            hasher.combine(path)
            hasher.combine(FileManager.default.contents(atPath: path))
        }
        return hasher.finalize()
    }

    /// Whether any definitions or override file changed, appeared or went away since `fingerprints` were taken.
    package func changed(since fingerprints: [String: FileFingerprint]) -> Bool {
        currentFingerprints() != fingerprints
    }

    /// The fingerprints of every definitions and override file now: compare two to tell whether a file changed
    /// in between.
    package func currentFingerprints() -> [String: FileFingerprint] {
        fingerprints(of: watchedFiles())
    }

    /// Every file whose change means a reload: the definitions files and the override files that exist.
    private func watchedFiles() -> [String] {
        guard let directory else { return overrideFiles.filter { FileManager.default.fileExists(atPath: $0) } }
        return DefinitionLoader.definitionFiles(in: directory)
            + overrideFiles.filter { FileManager.default.fileExists(atPath: $0) }
    }

    private func fingerprints(of paths: [String]) -> [String: FileFingerprint] {
        var result: [String: FileFingerprint] = [:]
        for path in paths { result[path] = FileFingerprint(path: path) }
        return result
    }
}

extension BoardInputs.Definitions {
    var directory: String? {
        if case .directory(let directory) = self { return directory }
        return nil
    }
}

extension BoardInputs {
    /// The day in UTC at `now`, or today.
    static func day(at now: Double?) -> Day {
        now.map { Day(daysSinceEpoch: Int(($0 / 86_400).rounded(.down))) } ?? .today()
    }
}
