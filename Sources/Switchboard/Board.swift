import Foundation
import Synchronization
import YAML

/// The facade a program creates once and shares: definitions plus their override layers, answering typed
/// lookups on the hot path, taking runtime overrides, and reporting changes.
///
/// ```swift
/// let board = try Board(directory: "flags")
/// if board.bool("checkout.new_flow", default: false) { ... }
/// let limit = board.value(FlagKey("app.upload.max_mb", default: 25))
/// try board.set("app.upload.max_mb", to: 100, actor: "alice")
/// for await change in board.changes { print(change.key, change.new) }
/// ```
///
/// Lookups never throw and never block: they read an immutable ``Snapshot`` that is swapped atomically when
/// anything changes. `Board` is `Sendable`; share one instance.
public final class Board: Sendable {
    /// How a board finds its layers.
    public struct Options: Sendable {
        /// The environment name selecting `<flags>/environments/<name>.yaml`; defaults to `SWITCHBOARD_ENV`.
        public var environmentName: String?
        /// Extra override files, applied after the environment file and `local.overrides.yaml`.
        public var overrideFiles: [String]
        /// The runtime store's path; defaults to `SWITCHBOARD_STATE`, then `.switchboard/overrides.json` beside
        /// the definitions directory.
        public var statePath: String?
        /// The environment variables of the env layer (and of `SWITCHBOARD_ENV` / `SWITCHBOARD_STATE`).
        public var environment: [String: String]
        /// How often to check the runtime store and the definition files for changes; `nil` turns watching off.
        public var pollInterval: Duration?
        /// Whether a change to definition or override files reloads them (the runtime store is always watched
        /// when polling is on).
        public var watchDefinitions: Bool
        /// The bucketing algorithm of rollouts and flagd `fractional` for definitions that do not choose one:
        /// flagd's current ``FractionalAlgorithm/v3``, or ``FractionalAlgorithm/v2`` to keep assignments made
        /// before flagd's switch.
        public var fractionalAlgorithm: FractionalAlgorithm = .v3

        /// Creates options; by default they read the process environment and poll every 250 ms.
        public init(
            environmentName: String? = nil, overrideFiles: [String] = [], statePath: String? = nil,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            pollInterval: Duration? = .milliseconds(250), watchDefinitions: Bool = true
        ) {
            self.environmentName = environmentName
            self.overrideFiles = overrideFiles
            self.statePath = statePath
            self.environment = environment
            self.pollInterval = pollInterval
            self.watchDefinitions = watchDefinitions
        }
    }

    /// A key whose resolved value changed.
    public struct Change: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value before (`nil`: the key was not defined).
        public var old: Value?
        /// The value now (`nil`: the key is no longer defined).
        public var new: Value?
        /// The layer the new value comes from.
        public var layer: Layer?
    }

    /// Refusals of ``set(_:to:actor:)`` and ``reset(_:actor:)``.
    public enum SetError: Error, Sendable, CustomStringConvertible {
        /// No definition has the key.
        case unknownKey(String, suggestions: [String])
        /// The value does not fit the definition.
        case invalidValue(key: String, ValueProblem)
        /// The store could not be read or written; nothing was changed.
        case store(RuntimeStore.StoreError)

        /// A readable account, with a hint.
        public var description: String {
            switch self {
            case .unknownKey(let key, let suggestions):
                "unknown key '\(key)'" + (suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?")
            case .invalidValue(let key, let problem):
                "refused value for \(key): \(problem.message)" + (problem.hint.map { "\n  hint: \($0)" } ?? "")
            case .store(let error):
                error.description
            }
        }
    }

    /// The definitions directory.
    public let directory: String
    /// The runtime store.
    public let store: RuntimeStore
    private let options: Options
    private let cell: SnapshotCell
    private let state: Mutex<State>
    private let watcher: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let reloading = Mutex(())

    /// The environment name that selects an override file, from the options or `SWITCHBOARD_ENV`.
    private var environmentName: String? {
        options.environmentName ?? options.environment["SWITCHBOARD_ENV"]
    }

    private struct State {
        var registry: Registry
        var files: FileOverrides
        var runtime: [String: RuntimeStore.Entry]
        var storeProblem: RuntimeStore.StoreError?
        var loadDiagnostics: [Diagnostic]
        var lastReloadErrors: [Diagnostic] = []
        var storeFingerprint: FileFingerprint?
        var sourceFingerprints: [String: FileFingerprint] = [:]
        var revision: UInt64 = 1
        var subscribers: [UInt64: AsyncStream<Change>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
    }

    /// Loads definitions from a directory with their override layers, and starts watching for changes.
    ///
    /// - Throws: ``LoadError`` with every diagnostic when the definitions or an override file have errors.
    public init(directory: String = "flags", options: Options = Options()) throws(LoadError) {
        self.directory = directory
        self.options = options
        let statePath = options.statePath ?? options.environment["SWITCHBOARD_STATE"]
            ?? RuntimeStore.defaultPath(flagsDirectory: directory)
        self.store = RuntimeStore(path: statePath)
        let report = DefinitionLoader.load(directory: directory)
        let files = Self.loadFiles(directory: directory, options: options)
        let errors = report.errors + files.diagnostics.filter(\.isError)
        if !errors.isEmpty {
            throw LoadError(diagnostics: Diagnostic.sorted(report.diagnostics + files.diagnostics))
        }
        var state = State(registry: report.registry, files: files, runtime: [:], storeProblem: nil,
                          loadDiagnostics: report.diagnostics + files.diagnostics)
        state.storeFingerprint = store.fingerprint()
        do {
            state.runtime = try store.read()
        } catch {
            state.storeProblem = error
        }
        state.sourceFingerprints = Self.fingerprints(of: report.registry.files + files.files)
        let snapshot = Snapshot(registry: state.registry, files: files, environment: options.environment,
                                runtime: state.runtime, revision: state.revision,
                                fractionalAlgorithm: options.fractionalAlgorithm)
        self.cell = SnapshotCell(snapshot)
        self.state = Mutex(state)
        if let interval = options.pollInterval { startWatching(every: interval) }
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.finish() }
        }
    }

    private static func loadFiles(directory: String, options: Options) -> FileOverrides {
        let environmentName = options.environmentName ?? options.environment["SWITCHBOARD_ENV"]
        let paths = FileOverrides.paths(flagsDirectory: directory, environment: environmentName,
                                        extra: options.overrideFiles)
        var required = Set(options.overrideFiles)
        if let environmentName, !environmentName.isEmpty { required.insert(paths[0]) }
        return FileOverrides.load(paths: paths, required: required)
    }

    private static func fingerprints(of paths: [String]) -> [String: FileFingerprint] {
        var result: [String: FileFingerprint] = [:]
        for path in paths { result[path] = FileFingerprint(path: path) }
        return result
    }

    // MARK: - Lookups

    /// The current snapshot: every definition and its resolved state. Keep it only briefly; it is replaced on
    /// every change.
    public var snapshot: Snapshot { cell.snapshot }

    /// The definitions in use.
    public var registry: Registry { cell.snapshot.registry }

    /// Resolves a key: its value, layer and reason, or an error code.
    public func resolve(_ key: String, context: EvaluationContext = .empty) -> Resolution {
        cell.read { $0.resolve(key, context: context) }
    }

    /// Typed lookup with the caller's default; never throws.
    @inlinable
    public func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T {
        lookup(key) { T(flagValue: $0) } ?? defaultValue
    }

    /// Typed lookup for a context with the caller's default; never throws.
    public func value<T: FlagValue>(_ key: String, default defaultValue: T, context: EvaluationContext) -> T {
        cell.read { snapshot in
            guard let position = snapshot.registry.position(of: key),
                  let value = snapshot.value(at: position, context: context)
            else { return nil }
            return T(flagValue: value)
        } ?? defaultValue
    }

    /// Typed lookup of a typed key.
    @inlinable
    public func value<T: FlagValue>(_ key: FlagKey<T>, context: EvaluationContext? = nil) -> T {
        if let context { return value(key.key, default: key.defaultValue, context: context) }
        return value(key.key, default: key.defaultValue)
    }

    /// The fast path: the context-free value of a key, converted by `convert`, with no allocation.
    @usableFromInline
    func lookup<T>(_ key: String, _ convert: (Value) -> T?) -> T? {
        cell.read { snapshot in
            guard let position = snapshot.registry.position(of: key) else { return nil }
            let entry = snapshot.fast[position]
            if entry.isDynamic { return snapshot.dynamicValue(at: position, context: .empty).flatMap(convert) }
            return entry.value.flatMap(convert)
        }
    }

    /// A bool, or `defaultValue` when the key is missing or not a bool.
    public func bool(_ key: String, default defaultValue: Bool, context: EvaluationContext? = nil) -> Bool {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// An int, or `defaultValue`.
    public func int(_ key: String, default defaultValue: Int, context: EvaluationContext? = nil) -> Int {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// A double (ints widen), or `defaultValue`.
    public func double(_ key: String, default defaultValue: Double, context: EvaluationContext? = nil) -> Double {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// A string, or `defaultValue`.
    public func string(_ key: String, default defaultValue: String, context: EvaluationContext? = nil) -> String {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// A list, or `defaultValue`.
    public func list(_ key: String, default defaultValue: [Value], context: EvaluationContext? = nil) -> [Value] {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// An object, or `defaultValue`.
    public func object(
        _ key: String, default defaultValue: [String: Value], context: EvaluationContext? = nil
    ) -> [String: Value] {
        context.map { value(key, default: defaultValue, context: $0) } ?? value(key, default: defaultValue)
    }

    /// The value with everything about how it was chosen; on a missing key or a type mismatch, the caller's
    /// default with the reason `ERROR` and an error code.
    public func details<T: FlagValue>(
        _ key: String, as type: T.Type = T.self, default defaultValue: T, context: EvaluationContext = .empty
    ) -> Details<T> {
        let resolution = resolve(key, context: context)
        var details = Details(key: key, value: defaultValue, variant: resolution.variant, reason: resolution.reason,
                              layer: resolution.layer, errorCode: resolution.errorCode,
                              errorMessage: resolution.errorMessage)
        guard let value = resolution.value else {
            details.layer = nil
            return details
        }
        guard let typed = T(flagValue: value) else {
            details.reason = .error
            details.layer = nil
            details.variant = nil
            details.errorCode = .typeMismatch
            details.errorMessage = "\(key) is \(value.kindDescription), not \(T.valueType.withArticle)"
            if T.valueType == .string, value.stringValue != nil {
                details.errorMessage = "\(key) is \"\(value.plainText)\", which \(T.self) has no case for"
            }
            return details
        }
        details.value = typed
        return details
    }

    /// The details of a typed key.
    public func details<T: FlagValue>(_ key: FlagKey<T>, context: EvaluationContext = .empty) -> Details<T> {
        details(key.key, default: key.defaultValue, context: context)
    }

    // MARK: - Runtime overrides

    /// Sets a runtime override after checking it against the definition; persisted atomically and logged.
    ///
    /// - Throws: ``SetError`` when the key is unknown, the value does not fit, or the store cannot be written;
    ///   nothing is written then.
    public func set(_ key: String, to value: Value, actor: String) throws(SetError) {
        let definition = try definition(for: key)
        var value = value
        if definition.type == .double, case .int(let int) = value { value = .double(Double(int)) }
        if let problem = definition.problem(with: value) { throw .invalidValue(key: key, problem) }
        try write(actor: actor) { entries in
            entries[key] = RuntimeStore.Entry(value: value, actor: actor, time: RuntimeStore.now())
            // The override now lives under the new key; drop copies under old names so they cannot resurface.
            for old in definition.renamedFrom { entries[old] = nil }
        }
    }

    /// Sets a runtime override of a typed value.
    public func set<T: FlagValue>(_ key: String, to value: T, actor: String) throws(SetError) {
        try set(key, to: value.flagValue, actor: actor)
    }

    /// Sets a runtime override from text (as typed on a command line), parsed by the key's type; for a variant
    /// flag the text may also name a variant.
    public func set(_ key: String, text: String, actor: String) throws(SetError) {
        let definition = try definition(for: key)
        // A variant flag takes a variant's name as well as its value.
        if let value = definition.value(ofVariant: text), definition.variant(for: .string(text)) == nil {
            try set(key, to: value, actor: actor)
            return
        }
        switch Value.parse(text, as: definition.type) {
        case .success(let value): try set(key, to: value, actor: actor)
        case .failure(let problem): throw .invalidValue(key: key, problem)
        }
    }

    /// Removes a key's runtime override (also an orphaned one, or one stored under a renamed key).
    public func reset(_ key: String, actor: String) throws(SetError) {
        let snapshot = cell.snapshot
        let renamedFrom = snapshot.registry[key]?.renamedFrom ?? []
        guard snapshot.registry[key] != nil || snapshot.orphans[key] != nil else {
            throw .unknownKey(key, suggestions: Suggestions.near(key, in: snapshot.registry.keys))
        }
        try write(actor: actor) { entries in
            entries[key] = nil
            for old in renamedFrom { entries[old] = nil }
        }
    }

    /// Removes every runtime override, orphans included.
    public func resetAll(actor: String) throws(SetError) {
        try write(actor: actor) { entries in entries.removeAll() }
    }

    private func definition(for key: String) throws(SetError) -> Definition {
        let snapshot = cell.snapshot
        guard let definition = snapshot.registry[key] else {
            throw .unknownKey(key, suggestions: Suggestions.near(key, in: snapshot.registry.keys))
        }
        return definition
    }

    private func write(actor: String, _ change: (inout [String: RuntimeStore.Entry]) -> Void) throws(SetError) {
        do {
            try store.update(actor: actor, change)
        } catch let error as RuntimeStore.StoreError {
            throw .store(error)
        } catch {
            throw .store(RuntimeStore.StoreError(message: "\(error)"))
        }
        refreshRuntime()
    }

    /// The last `limit` audit records, oldest first.
    public func auditLog(limit: Int = .max) -> [RuntimeStore.AuditRecord] {
        store.auditLog(limit: limit)
    }

    // MARK: - Reloading and changes

    /// Diagnostics that do not stop the board: warnings from loading, skipped overrides, orphans, and a corrupt
    /// store.
    public var diagnostics: [Diagnostic] {
        let snapshot = cell.snapshot
        return state.withLock { state in
            var all = state.loadDiagnostics + snapshot.diagnostics
            if let problem = state.storeProblem {
                all.append(.error(at: nil, problem.message, hint: problem.hint))
            }
            return Diagnostic.sorted(all)
        }
    }

    /// The diagnostics about overrides only: skipped file and env values, orphaned runtime overrides, override
    /// file warnings and a corrupt store. Definition warnings (stale flags) are `validate`'s business.
    public var overrideDiagnostics: [Diagnostic] {
        let snapshot = cell.snapshot
        return state.withLock { state in
            var all = state.files.diagnostics + snapshot.diagnostics
            if let problem = state.storeProblem {
                all.append(.error(at: nil, problem.message, hint: problem.hint))
            }
            return Diagnostic.sorted(all)
        }
    }

    /// The problem with the runtime store, when it does not parse.
    public var storeProblem: RuntimeStore.StoreError? {
        state.withLock { $0.storeProblem }
    }

    /// The errors of the last reload that failed; empty once a reload succeeds.
    public var lastReloadErrors: [Diagnostic] {
        state.withLock { $0.lastReloadErrors }
    }

    /// The revision of the snapshot in use; it grows with every change.
    public var revision: UInt64 { cell.snapshot.revision }

    /// Reloads definitions, override files and the runtime store. When the definitions or an override file have
    /// errors, the last good ones stay in use and the errors are returned (and kept in ``lastReloadErrors``).
    @discardableResult
    public func reload() -> LoadReport {
        // One reload at a time, so an older read can never replace a newer one.
        reloading.withLock { _ in reloadNow() }
    }

    private func reloadNow() -> LoadReport {
        // Fingerprints first: an edit landing while the files are read then shows as a change at the next poll.
        let before = Self.fingerprints(of: DefinitionLoader.definitionFiles(in: directory)
            + FileOverrides.paths(flagsDirectory: directory, environment: environmentName, extra: options.overrideFiles))
        let report = DefinitionLoader.load(directory: directory)
        let files = Self.loadFiles(directory: directory, options: options)
        let diagnostics = Diagnostic.sorted(report.diagnostics + files.diagnostics)
        let fingerprints = before.filter { (report.registry.files + files.files).contains($0.key) }
        if report.hasErrors || files.diagnostics.contains(where: \.isError) {
            state.withLock { state in
                state.lastReloadErrors = diagnostics.filter(\.isError)
                state.sourceFingerprints = fingerprints
            }
            return LoadReport(registry: report.registry, diagnostics: diagnostics)
        }
        rebuild { state in
            state.registry = report.registry
            state.files = files
            state.loadDiagnostics = diagnostics
            state.lastReloadErrors = []
            state.sourceFingerprints = fingerprints
            state.storeFingerprint = store.fingerprint()
            readStore(into: &state)
        }
        return LoadReport(registry: report.registry, diagnostics: diagnostics)
    }

    /// Re-reads the runtime store (another process may have changed it).
    public func refreshRuntime() {
        rebuild { state in
            state.storeFingerprint = store.fingerprint()
            readStore(into: &state)
        }
    }

    private func readStore(into state: inout State) {
        do {
            state.runtime = try store.read()
            state.storeProblem = nil
        } catch {
            // Keep the last good overrides in effect and report the file.
            state.storeProblem = error
        }
    }

    /// Applies a state change, builds the new snapshot, and tells subscribers what changed.
    private func rebuild(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.revision += 1
            let snapshot = Snapshot(registry: state.registry, files: state.files, environment: options.environment,
                                    runtime: state.runtime, revision: state.revision,
                                    fractionalAlgorithm: options.fractionalAlgorithm)
            let old = cell.replace(with: snapshot)
            // Yielding only buffers (no subscriber code runs here), and doing it under the lock keeps every
            // subscriber's changes in revision order when two rebuilds race.
            for change in Self.differences(from: old, to: snapshot) {
                for continuation in state.subscribers.values { continuation.yield(change) }
            }
        }
    }

    static func differences(from old: Snapshot, to new: Snapshot) -> [Change] {
        var changes: [Change] = []
        for entry in new.entries {
            let before = old.entry(entry.definition.key)
            if before?.fixed.value != entry.fixed.value || before?.fixed.layer != entry.fixed.layer {
                changes.append(Change(key: entry.definition.key, old: before?.fixed.value, new: entry.fixed.value,
                                      layer: entry.fixed.layer))
            }
        }
        for entry in old.entries where new.entry(entry.definition.key) == nil {
            changes.append(Change(key: entry.definition.key, old: entry.fixed.value, new: nil, layer: nil))
        }
        return changes
    }

    /// Every change to a resolved value from now on: from ``set(_:to:actor:)`` and ``reset(_:actor:)``, from
    /// reloads, and from other processes writing the same runtime store. Each access makes a new stream.
    public var changes: AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Checks once for changes made elsewhere: the runtime store, and (when watched) definition and override
    /// files. The watcher calls this on every poll.
    public func checkForChanges() {
        let (storeFingerprint, sources) = state.withLock { ($0.storeFingerprint, $0.sourceFingerprints) }
        if options.watchDefinitions {
            let current = Self.fingerprints(of: Array(sources.keys))
            let listed = Set(DefinitionLoader.definitionFiles(in: directory))
                .union(FileOverrides.paths(flagsDirectory: directory, environment: environmentName,
                                           extra: options.overrideFiles).filter { FileManager.default.fileExists(atPath: $0) })
            if current != sources || listed != Set(sources.keys) {
                reload()
                return
            }
        }
        if store.fingerprint() != storeFingerprint {
            refreshRuntime()
        }
    }

    private func startWatching(every interval: Duration) {
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.checkForChanges()
            }
        }
        watcher.withLock { $0 = task }
    }

    /// Stops watching for changes (a board stops by itself when it is released).
    public func stopWatching() {
        watcher.withLock { $0?.cancel() }
    }
}
