import Locking

/// What a board tells its subscribers.
public enum BoardEvent: Sendable {
    /// A new snapshot is in service.
    case published(Publication)
    /// A reload found errors (the last good definitions stay in service), or an earlier one's errors are fixed
    /// (empty); or the runtime store became unreadable or readable again.
    case status(BoardStatus)
}

/// A board's health: the errors of the last failed reload, and the store's problem.
public struct BoardStatus: Sendable, Equatable {
    /// The errors of the last reload that failed; empty once a reload succeeds.
    public var reloadErrors: [Diagnostic] = []
    /// The runtime store's problem, when it cannot be read or reached.
    public var storeProblem: String?

    /// Whether the board serves older definitions or overrides than its inputs hold: the last reload failed, or
    /// the store cannot be read. `/healthz` says `degraded` then.
    public var isDegraded: Bool { !reloadErrors.isEmpty || storeProblem != nil }

    /// Creates a status.
    public init(reloadErrors: [Diagnostic] = [], storeProblem: String? = nil) {
        self.reloadErrors = reloadErrors
        self.storeProblem = storeProblem
    }
}

/// One publication: the snapshot replaced, the one now in service, and what changed between them.
public struct Publication: Sendable {
    /// The snapshot before.
    public let old: Snapshot
    /// The snapshot now in service.
    public let new: Snapshot
    /// Every key whose resolution changed: its value or layer for the empty context, or (after a reload) what
    /// its definition serves, such as its targeting. In registry order; removed keys last.
    public let changes: [Board.Change]

    /// Compares two snapshots. `positions` limits the comparison to the positions a runtime write replaced
    /// (the definitions are then the same); `nil` compares every key, as after a reload.
    init(old: Snapshot, new: Snapshot, positions: [Int]?) {
        self.old = old
        self.new = new
        var changes: [Board.Change] = []
        if let positions {
            for position in positions.sorted() {
                let before = old.table[position].fixed
                let after = new.table[position].fixed
                if before.value != after.value || before.layer != after.layer {
                    changes.append(Board.Change(key: new.registry.definitions[position].key, old: before.value,
                                                new: after.value, layer: after.layer))
                }
            }
        } else {
            let sameDefinitions = old.definitions === new.definitions
            for position in new.registry.definitions.indices {
                let key = new.registry.definitions[position].key
                let after = new.table[position].fixed
                guard let oldPosition = old.registry.position(of: key) else {
                    changes.append(Board.Change(key: key, old: nil, new: after.value, layer: after.layer))
                    continue
                }
                let before = old.table[oldPosition].fixed
                let changed = before.value != after.value || before.layer != after.layer
                    || (!sameDefinitions
                        && old.definitions.signature(at: oldPosition) != new.definitions.signature(at: position))
                if changed {
                    changes.append(Board.Change(key: key, old: before.value, new: after.value, layer: after.layer))
                }
            }
            for definition in old.registry.definitions where new.registry[definition.key] == nil {
                changes.append(Board.Change(key: definition.key, old: old.entry(definition.key)?.fixed.value, new: nil,
                                            layer: nil))
            }
        }
        self.changes = changes
    }
}

/// The one place a board's changes come from: every publication and status change goes to every subscriber,
/// in order. Subscribers are registered and removed under a lock; events are delivered outside it, so a
/// subscriber may subscribe, cancel or read the board from its handler.
final class ChangePublisher: Sendable {
    typealias Handler = @Sendable (BoardEvent) -> Void

    private struct State {
        var subscribers: [UInt64: Handler] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    /// Registers a handler; returns its id for ``unsubscribe(_:)``.
    func subscribe(_ handler: @escaping Handler) -> UInt64 {
        state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = handler
            return state.next
        }
    }

    /// Removes a handler.
    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Delivers an event to every handler. The board calls this while it serializes its writers, so every
    /// subscriber sees publications in revision order.
    func send(_ event: BoardEvent) {
        let handlers = state.withLock { state in state.subscribers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event) }
    }

    /// How many handlers are registered.
    var count: Int { state.withLock { $0.subscribers.count } }
}
