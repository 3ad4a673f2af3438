import CoreMetrics
import Locking
import Logging

/// What a board reports on its own, through swift-log and swift-metrics: every new revision, runtime write,
/// failed reload, skipped override value and store outage. `BoardEngine` tells it what happened; it decides
/// what that counts as and what to log, once for every face.
///
/// | metric | type | what |
/// |---|---|---|
/// | `switchboard_reloads_total` | counter | new revisions served: reloads and runtime override changes |
/// | `switchboard_reload_errors_total` | counter | reloads refused because the definitions did not validate |
/// | `switchboard_runtime_writes_total` | counter | runtime overrides set or reset through this board |
/// | `switchboard_store_outages_total` | counter | times the runtime store became unreadable or unreachable |
/// | `switchboard_revision` | gauge | the revision in service |
/// | `switchboard_definitions` | gauge | definitions in service |
/// | `switchboard_degraded` | gauge | 1 while the last reload failed or the store cannot be read |
final class BoardTelemetry: Sendable {
    let logger: Logger
    let factory: any MetricsFactory
    private let reloads: Counter
    private let reloadErrors: Counter
    private let writes: Counter
    private let storeOutages: Counter
    private let revision: Gauge
    private let definitions: Gauge
    private let degraded: Gauge
    private let status = Locked(BoardStatus())

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        self.factory = factory
        reloads = Counter(label: "switchboard_reloads_total", factory: factory)
        reloadErrors = Counter(label: "switchboard_reload_errors_total", factory: factory)
        writes = Counter(label: "switchboard_runtime_writes_total", factory: factory)
        storeOutages = Counter(label: "switchboard_store_outages_total", factory: factory)
        revision = Gauge(label: "switchboard_revision", factory: factory)
        definitions = Gauge(label: "switchboard_definitions", factory: factory)
        degraded = Gauge(label: "switchboard_degraded", factory: factory)
        degraded.record(0)
    }

    /// The first snapshot is in service. Its warnings are not logged: the board's creator has them in the
    /// warnings of ``Board/status`` and presents them (the command line prints them); a store that cannot be read
    /// is logged and counted, as an outage.
    func started(_ snapshot: Snapshot, status: BoardStatus) {
        revision.record(Int64(truncatingIfNeeded: snapshot.revision))
        definitions.record(snapshot.registry.count)
        changed(to: status)
    }

    /// A new snapshot is in service. `positions` are the ones a runtime write retyped (`nil` after a reload):
    /// only their skipped values are new.
    func published(old: Snapshot, new: Snapshot, positions: [Int]?) {
        reloads.increment()
        revision.record(Int64(truncatingIfNeeded: new.revision))
        if let positions {
            for position in positions {
                for diagnostic in new.runtimeRejections(at: position) { skipped(diagnostic) }
            }
        } else {
            definitions.record(new.registry.count)
            let known = Set(old.diagnostics)
            for diagnostic in new.diagnostics where !known.contains(diagnostic) { skipped(diagnostic) }
            removedDefinitions(old: old.registry, new: new.registry)
        }
    }

    /// A reload that removed definitions (an edit, a deleted file, a checkout that missed one) is a warning: every
    /// client that asks for them gets its own default from now on, and the board is otherwise healthy.
    private func removedDefinitions(old: Registry, new: Registry) {
        let removed = old.keys.filter { new[$0] == nil && new.definition(renamedFrom: $0) == nil }
        guard !removed.isEmpty else { return }
        let gone = Set(old.files).subtracting(new.files).sorted()
        let shown = removed.prefix(10).joined(separator: ", ") + (removed.count > 10 ? ", …" : "")
        let message = "the definitions changed and \(removed.count) key\(removed.count == 1 ? " is" : "s are") no "
            + "longer defined: \(shown); a client asking for \(removed.count == 1 ? "it" : "one") gets FLAG_NOT_FOUND "
            + "and its own default"
            + (gone.isEmpty ? "" : " (no longer read: \(gone.joined(separator: ", ")))")
        logger.warning("\(message)")
    }

    /// A runtime write went through, changing `keys` overrides (none for a write that changed nothing).
    func wrote(keys: Int) {
        if keys > 0 { writes.increment(by: keys) }
    }

    /// The board's status may have changed: a reload failed or recovered, the store failed or recovered.
    func changed(to new: BoardStatus) {
        let old = status.withLock { status in
            defer { status = new }
            return status
        }
        guard old != new else { return }
        degraded.record(new.isDegraded ? 1 : 0)
        if old.reloadErrors != new.reloadErrors {
            if new.reloadErrors.isEmpty {
                logger.info("definitions reloaded; the earlier errors are fixed")
            } else {
                reloadErrors.increment()
                let count = new.reloadErrors.count
                logger.error("""
                    definitions changed but do not validate: \(count) error\(count == 1 ? "" : "s"); still \
                    serving the last good definitions
                    """)
                for diagnostic in new.reloadErrors { logger.error("\(diagnostic.description)") }
            }
        }
        if old.storeProblem != new.storeProblem {
            if let problem = new.storeProblem {
                if old.storeProblem == nil { storeOutages.increment() }
                logger.error("the runtime override store cannot be read; the last good overrides stay in effect",
                             metadata: ["problem": "\(problem)"])
            } else {
                logger.info("the runtime override store reads again")
            }
        }
    }

    /// A value an override layer could not use, an override with no definition, or another warning about the
    /// overrides.
    private func skipped(_ diagnostic: Diagnostic) {
        logger.warning("\(diagnostic.description)")
    }
}
