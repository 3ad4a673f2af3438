import CoreMetrics
import Locking

/// The snapshot in service and everything that keeps it current: it loads the board's inputs, writes runtime
/// overrides to the store, reloads definitions and override files when they change, catches up with the store
/// when someone else writes it, and publishes each new snapshot to the board's subscribers.
///
/// Writers are serialized (one publication at a time, in revision order); readers never wait for them: they read
/// the ``SnapshotCell``. A runtime write retypes only the keys it changed (see
/// ``Snapshot/updatingRuntime(entries:changedStoreKeys:storeVersion:revision:)``); a reload builds new compiled
/// definitions. ``Board`` is the facade over it.
final class BoardEngine: Sendable {
    /// The snapshot in service.
    let cell: SnapshotCell<Snapshot>
    /// What the board logs and counts.
    let telemetry: BoardTelemetry
    private let state: Locked<State>
    /// Serializes publications, so snapshots are built from the latest state and published in revision order.
    private let publishing = Locked(())
    private let watches = Locked<[ChangeSubscription]>([])

    private struct State {
        /// Every stored override, as last read or written; mutated in place, so a write costs what it changes.
        var runtime: [String: StoredOverride] = [:]
        var storeVersion: UInt64 = 0
        var loadDiagnostics: [Diagnostic]
        var fileDiagnostics: [Diagnostic]
        /// The health that changes announce: reload errors and the store's problem (warnings are read fresh).
        var status = BoardStatus()
        var fingerprints: [String: FileFingerprint]
        /// The digest of the files the snapshot in service was built from (``BoardInputs/contentDigest()``), taken
        /// before they were read; `nil` when none was taken.
        var digest: Int?
        var revision: UInt64 = 1
        /// The inputs of the snapshot in service, to build it again at a time boundary without reading files.
        var loaded: BoardInputs.Loaded
        /// The stored overrides that have an expiry (expired or not).
        var expiring: Set<String> = []
        /// The wake-up set for the next boundary (a schedule step or an override expiry), and its time.
        var timer: (time: Double, subscription: ChangeSubscription)?

        /// The stored overrides that count at `now`: those whose expiry has not come.
        func live(at now: Double) -> [String: StoredOverride] {
            guard !expiring.isEmpty, expiring.contains(where: { runtime[$0]?.isExpired(at: now) ?? false }) else {
                return runtime
            }
            return runtime.filter { !$0.value.isExpired(at: now) }
        }

        /// Records the stored overrides of `keys` as they now are in ``runtime``.
        mutating func noteExpiries(of keys: some Sequence<String>) {
            for key in keys {
                if runtime[key]?.expiresAt != nil { expiring.insert(key) } else { expiring.remove(key) }
            }
        }
    }

    /// Loads the inputs and starts watching them when the options poll.
    ///
    /// - Throws: ``LoadError`` with every diagnostic when the definitions or an override file have errors.
    init(inputs: BoardInputs, options: BoardOptions) throws(LoadError) {
        self.inputs = inputs
        self.options = options
        // Only a board that watches its files reloads them: a one-shot command reads them once.
        let digest = options.pollInterval == nil ? nil : inputs.contentDigest()
        let loaded = inputs.load(now: options.clock.now())
        if loaded.hasErrors { throw LoadError(diagnostics: loaded.diagnostics) }
        var state = State(loadDiagnostics: loaded.diagnostics, fileDiagnostics: loaded.files.diagnostics,
                          fingerprints: loaded.fingerprints, loaded: loaded)
        state.digest = digest
        do {
            let contents = try inputs.store.read()
            state.runtime = contents.entries
            state.storeVersion = contents.version
            state.noteExpiries(of: contents.entries.keys)
        } catch {
            state.status.storeProblem = error
        }
        let now = options.clock.now()
        let snapshot = Self.build(loaded, inputs: inputs, options: options,
                                  runtime: StoreContents(entries: state.live(at: now), version: state.storeVersion),
                                  revision: state.revision, at: now)
        self.cell = SnapshotCell(snapshot)
        telemetry = BoardTelemetry(logger: options.logger, factory: options.metricsFactory ?? MetricsSystem.factory)
        telemetry.started(snapshot, status: state.status)
        self.state = Locked(state)
        if let interval = options.pollInterval { startWatching(every: interval) }
        armBoundaryTimer()
    }

    let options: BoardOptions

    /// A whole snapshot at the time `now`: the definitions compiled with the schedule steps in force then, every
    /// layer typed against them; `runtime` holds the overrides that count then.
    private static func build(
        _ loaded: BoardInputs.Loaded, inputs: BoardInputs, options: BoardOptions, runtime: StoreContents,
        revision: UInt64, at now: Double, clock: (any BoardClock)? = nil
    ) -> Snapshot {
        let registry = loaded.report.registry.inForce(at: now)
        return Snapshot(
            definitions: CompiledDefinitions(registry: registry, fractionalAlgorithm: options.fractionalAlgorithm,
                                             clock: clock ?? options.clock),
            fileLayer: FileLayer.type(loaded.files, against: registry),
            environmentLayer: EnvironmentLayer.type(inputs.environment, against: registry),
            runtime: runtime, storeKind: inputs.store.kind, revision: revision)
    }

    private let inputs: BoardInputs
    private var store: any RuntimeStore { inputs.store }

    deinit {
        for watch in watches.withLock({ $0 }) { watch.cancel() }
    }

    /// Writes changes to the store and publishes them: the keys they touch are retyped, nothing else. A write the
    /// store refuses as a conflict re-reads the store first.
    ///
    /// - Returns: the store's write: its version after it, and the overrides it changed.
    func write(
        _ changes: [OverrideChange], by attribution: Attribution, condition: WriteCondition?
    ) throws(StoreError) -> StoreWrite {
        let write: StoreWrite
        do {
            write = try store.apply(changes, by: attribution, condition: condition)
        } catch {
            // The store is ahead of this board (a write from another process, not yet polled): catch up now, so
            // that the version a refused writer reads next is the one that refused it.
            if case .conflict = error.kind { refreshRuntime() }
            throw error
        }
        telemetry.wrote(keys: write.changed.count)
        publishingThenDelivering {
            let contiguous = state.withLock { state -> Bool in
                guard write.version == state.storeVersion + 1 else { return write.changed.isEmpty }
                for (key, entry) in write.changed { state.runtime[key] = entry }
                state.noteExpiries(of: write.changed.keys)
                state.storeVersion = write.version
                return true
            }
            if !contiguous {
                // Someone else wrote in between: take the whole store, which has both writes.
                refreshRuntimeLocked()
            } else if !write.changed.isEmpty {
                publishRuntime(changedKeys: Array(write.changed.keys))
            }
        }
        return write
    }

    /// Builds and publishes the snapshot for changed stored overrides. Called while publishing.
    private func publishRuntime(changedKeys: [String]) {
        let now = options.clock.now()
        let (entries, version, revision) = state.withLock { state in
            state.revision += 1
            return (state.live(at: now), state.storeVersion, state.revision)
        }
        let (snapshot, positions) = cell.snapshot.updatingRuntime(
            entries: entries, changedStoreKeys: changedKeys, storeVersion: version, revision: revision)
        publish(snapshot, positions: positions)
    }

    private func publish(_ snapshot: Snapshot, positions: [Int]?) {
        let old = cell.replace(with: snapshot)
        telemetry.published(old: old, new: snapshot, positions: positions)
        publisher.enqueue(.published(Publication(old: old, new: snapshot, positions: positions)))
    }

    /// Tells the telemetry and the subscribers of a new status, with the warnings of the moment.
    private func announce() {
        let status = self.status
        telemetry.changed(to: status)
        publisher.enqueue(.status(status))
    }

    /// The board's health: the last reload's errors, the store's problem, and the warnings, read together.
    var status: BoardStatus { status(warnings: \.loadDiagnostics) }

    /// The reload errors and the store's problem without the warnings, which cost a walk over every definition:
    /// what `/healthz` and the REPL's prompt read.
    var health: BoardStatus { state.withLock { $0.status } }

    /// The warnings about overrides only: skipped file and env values, orphaned runtime overrides, override
    /// file warnings and a store that cannot be read. Definition warnings (stale flags) are `validate`'s business.
    var overrideWarnings: [Diagnostic] { status(warnings: \.fileDiagnostics).warnings }

    /// The status with the warnings of the snapshot in service, the store's problem and the load's diagnostics
    /// that `path` picks, all under one reading of the state (so the store's problem and its warning agree).
    private func status(warnings path: KeyPath<State, [Diagnostic]>) -> BoardStatus {
        let snapshotWarnings = cell.snapshot.diagnostics
        return state.withLock { state in
            var status = state.status
            var all = state[keyPath: path] + snapshotWarnings
            if let problem = state.status.storeProblem {
                all.append(problem.diagnostic)
            }
            status.warnings = Diagnostic.sorted(all)
            return status
        }
    }

    /// The revision of the snapshot in use; it grows with every change.
    var revision: UInt64 { cell.snapshot.revision }

    /// Reloads definitions, override files and the runtime store. When the definitions or an override file have
    /// errors, the last good ones stay in use and the errors are returned (and kept in the status's `reloadErrors`).
    @discardableResult
    func reload() -> LoadReport {
        publishingThenDelivering { reloadLocked()! }
    }

    /// Loads the files the watcher found held still at `settled`, unless they changed again since: then nothing is
    /// loaded, and the next poll sees the change.
    private func reloadIfSettled(at settled: [String: FileFingerprint]) {
        publishingThenDelivering { _ = reloadLocked(unlessChangedSince: settled) }
    }

    /// Reloads; with `settled`, returns `nil` and publishes nothing when the files no longer match it after
    /// reading them (a write landed in between). Files that read as they did for the snapshot in service (a
    /// `touch`, a save without a change, a checkout of the same content), with the store at the same version and
    /// no reload errors to clear, publish nothing either: no new revision, no event to every client.
    private func reloadLocked(unlessChangedSince settled: [String: FileFingerprint]? = nil) -> LoadReport? {
        // Before the files are read, as the fingerprints are: an edit landing during the read then differs next time.
        let digest = inputs.contentDigest()
        let loaded = inputs.load(now: options.clock.now())
        if let settled, inputs.currentFingerprints() != settled { return nil }
        if loaded.hasErrors {
            let errors = loaded.diagnostics.filter(\.isError)
            let changed = state.withLock { state in
                state.fingerprints = loaded.fingerprints
                guard state.status.reloadErrors != errors else { return false }
                state.status.reloadErrors = errors
                return true
            }
            if changed { announce() }
            return LoadReport(registry: loaded.report.registry, diagnostics: loaded.diagnostics)
        }
        let contents = readStore()
        let unchanged = state.withLock { state in
            guard let digest, digest == state.digest, state.status.reloadErrors.isEmpty,
                  let contents, contents.version == state.storeVersion else { return false }
            state.fingerprints = loaded.fingerprints
            state.loadDiagnostics = loaded.diagnostics
            state.fileDiagnostics = loaded.files.diagnostics
            state.loaded = loaded
            return true
        }
        if unchanged { return LoadReport(registry: loaded.report.registry, diagnostics: loaded.diagnostics) }
        let now = options.clock.now()
        let (revision, runtime, version, fixed) = state.withLock { state in
            state.digest = digest
            state.loadDiagnostics = loaded.diagnostics
            state.fileDiagnostics = loaded.files.diagnostics
            state.fingerprints = loaded.fingerprints
            state.loaded = loaded
            if let contents {
                state.runtime = contents.entries
                state.storeVersion = contents.version
                state.expiring = []
                state.noteExpiries(of: contents.entries.keys)
            }
            state.revision += 1
            let fixed = !state.status.reloadErrors.isEmpty
            state.status.reloadErrors = []
            return (state.revision, state.live(at: now), state.storeVersion, fixed)
        }
        let registry = loaded.report.registry
        let snapshot = Self.build(loaded, inputs: inputs, options: options,
                                  runtime: StoreContents(entries: runtime, version: version), revision: revision,
                                  at: now)
        publish(snapshot, positions: nil)
        if fixed { announce() }
        return LoadReport(registry: registry, diagnostics: loaded.diagnostics)
    }

    /// Reads the store, recording (and announcing) whether it can be read. `nil` when it cannot: the last good
    /// overrides stay in effect.
    private func readStore() -> StoreContents? {
        do {
            let contents = try store.read()
            recordStoreHealth(nil)
            return contents
        } catch {
            recordStoreHealth(error)
            return nil
        }
    }

    /// Records whether the store can be read, and announces a change of that.
    private func recordStoreHealth(_ error: StoreError?) {
        let changed = state.withLock { state in
            guard state.status.storeProblem != error else { return false }
            state.status.storeProblem = error
            return true
        }
        if changed { announce() }
    }

    /// Re-reads the runtime store (another process may have changed it) and publishes what changed.
    func refreshRuntime() {
        publishingThenDelivering { refreshRuntimeLocked() }
    }

    /// Runs `body` while publishing (one publication at a time, queued in revision order), then, with every lock
    /// released, delivers what it published: handlers may read and write the board (see ``ChangePublisher``).
    private func publishingThenDelivering<Result>(_ body: () -> Result) -> Result {
        let result = publishing.withLock { _ in body() }
        publisher.deliver()
        armBoundaryTimer()
        return result
    }

    // MARK: - Time

    /// Sets the one wake-up for the next moment the served values change by themselves: the next schedule step of
    /// any definition, or the next expiry of a stored override. Not a poll: nothing runs between boundaries.
    private func armBoundaryTimer() {
        let now = options.clock.now()
        let registry = cell.snapshot.registry
        let (next, unchanged) = state.withLock { state -> (Double?, Bool) in
            var next = registry.nextScheduleStep(after: now)
            for key in state.expiring {
                guard let expiry = state.runtime[key]?.expiry, expiry > now else { continue }
                next = min(next ?? expiry, expiry)
            }
            return (next, state.timer?.time == next)
        }
        guard !unchanged else { return }
        // Set outside the lock: the clock calls back into the engine, which takes it.
        let subscription = next.map { time in
            options.clock.wake(at: time) { [weak self] in self?.boundaryReached() }
        }
        let replaced = state.withLock { state -> ChangeSubscription? in
            let old = state.timer?.subscription
            if let next, let subscription { state.timer = (next, subscription) } else { state.timer = nil }
            return old
        }
        replaced?.cancel()
    }

    /// The snapshot as it would be at `time`: the schedule steps in force then, the stored overrides that count
    /// then, `$flagd.timestamp` reading `time`; the definitions, files and store as they are now. Built for the
    /// asking, never published.
    func snapshot(at time: Double) -> Snapshot {
        let (loaded, runtime, version, revision) = state.withLock { state in
            (state.loaded, state.live(at: time), state.storeVersion, state.revision)
        }
        return Self.build(loaded, inputs: inputs, options: options,
                          runtime: StoreContents(entries: runtime, version: version), revision: revision, at: time,
                          clock: FixedClock(time))
    }

    /// The next moment values change by themselves (the wake-up's time) and the definitions whose values may
    /// change then: those with a schedule step at that moment, and those whose runtime override expires then.
    func upcomingChange() -> (at: Double, keys: Set<String>)? {
        let (time, expiring, registry) = state.withLock { state -> (Double?, [String], Registry) in
            guard let time = state.timer?.time else { return (nil, [], state.loaded.report.registry) }
            return (time, state.expiring.filter { state.runtime[$0]?.expiry == time }, state.loaded.report.registry)
        }
        guard let time else { return nil }
        var keys = RuntimeLayer.affectedDefinitions(by: expiring, registry: registry)
        for position in registry.scheduled where registry.definitions[position].schedule?.steps
            .contains(where: { $0.at == time }) == true
        {
            keys.insert(registry.definitions[position].key)
        }
        return (time, keys)
    }

    /// A schedule step or an expiry has come: the snapshot is built again for the time now (from the inputs in
    /// hand, reading no file) and published as a new revision, a change like any other.
    private func boundaryReached() {
        state.withLock { $0.timer = nil }
        publishingThenDelivering {
            let now = options.clock.now()
            let (loaded, runtime, version, revision) = state.withLock { state in
                state.revision += 1
                return (state.loaded, state.live(at: now), state.storeVersion, state.revision)
            }
            let snapshot = Self.build(loaded, inputs: inputs, options: options,
                                      runtime: StoreContents(entries: runtime, version: version), revision: revision,
                                      at: now)
            publish(snapshot, positions: nil)
        }
    }

    private func refreshRuntimeLocked() {
        let known = state.withLock { $0.storeVersion }
        // A store that can tell what changed since the version in hand costs what changed; otherwise read all.
        let delta: StoreDelta?
        do {
            delta = try store.changes(since: known)
        } catch {
            recordStoreHealth(error)
            return
        }
        if let delta {
            recordStoreHealth(nil)
            guard delta.version != known else { return }
            state.withLock { state in
                for (key, entry) in delta.changed { state.runtime[key] = entry }
                state.noteExpiries(of: delta.changed.keys)
                state.storeVersion = delta.version
            }
            if !delta.changed.isEmpty { publishRuntime(changedKeys: Array(delta.changed.keys)) }
            return
        }
        guard let contents = readStore() else { return }
        let changed = state.withLock { state -> [String] in
            var changed: [String] = []
            for (key, entry) in contents.entries where state.runtime[key] != entry { changed.append(key) }
            for key in state.runtime.keys where contents.entries[key] == nil { changed.append(key) }
            state.runtime = contents.entries
            state.storeVersion = contents.version
            state.expiring = []
            state.noteExpiries(of: contents.entries.keys)
            return changed
        }
        if !changed.isEmpty { publishRuntime(changedKeys: changed) }
    }

    /// Every event from now on, in order.
    let publisher = ChangePublisher<BoardEvent> { event in
        guard case .published(let publication) = event else { return [] }
        return publication.changes
    }

    /// The stored override of a key.
    func storedOverride(_ key: String) -> StoredOverride? {
        state.withLock { $0.runtime[key] }
    }

    /// The store's version as last read or written.
    var storeVersion: UInt64 { state.withLock { $0.storeVersion } }

    /// The keys of the stored overrides that count at `now` (orphans included), or the store's problem when it
    /// could not be read: then what it holds is unknown.
    func liveStoredKeys(at now: Double) -> Result<[String], StoreError> {
        state.withLock { state in
            if let problem = state.status.storeProblem { return .failure(problem) }
            return .success(Array(state.live(at: now).keys))
        }
    }

    /// Checks once for changes made elsewhere: definition and override files (when watched), and the runtime
    /// store. The watcher calls this on every poll; the REPL calls it before each prompt.
    func checkForChanges() {
        if options.watchDefinitions {
            let fingerprints = state.withLock { $0.fingerprints }
            if inputs.changed(since: fingerprints) {
                reload()
                return
            }
        }
        refreshRuntime()
    }

    private func startWatching(every interval: Duration) {
        let storeWatch = store.watch(every: interval) { [weak self] in self?.refreshRuntime() }
        var all = [storeWatch]
        if options.watchDefinitions {
            let task = Task.detached { [weak self] in
                // What the files looked like at the last poll that found them changed: an editor still writing
                // (a file saved in two writes, say) changes them again within an interval, and a half-written
                // file that happens to validate must not be served. A change is loaded once it has held still
                // for one interval.
                var settling: [String: FileFingerprint]?
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    let loaded = self.state.withLock { $0.fingerprints }
                    let current = self.inputs.currentFingerprints()
                    if current == loaded {
                        settling = nil
                    } else if current == settling {
                        settling = nil
                        self.reloadIfSettled(at: current)
                    } else {
                        settling = current
                    }
                }
            }
            all.append(ChangeSubscription { task.cancel() })
        }
        watches.withLock { $0 = all }
    }

    /// Stops watching for changes (a board stops by itself when it is released).
    func stopWatching() {
        for watch in watches.withLock({ $0 }) { watch.cancel() }
    }
}
