import Locking
import Switchboard
import SwitchboardTerminal

/// A resolved value that changed since the REPL last looked.
struct ValueChange: Sendable, Equatable {
    /// The key.
    var key: String
    /// The value before; `nil` when the key was not defined.
    var old: Value?
    /// The value now; `nil` when the key is no longer defined.
    var new: Value?
    /// The layer the new value comes from.
    var layer: Layer?
    /// Who set it, when a runtime override supplies it.
    var actor: String?
}

/// Remembers every key's resolved value as the user last saw it, and reports the keys the board's change
/// publisher names (another REPL, `switchboard set`, the admin API, an edit to the definitions) at the next prompt.
///
/// It subscribes to the board: publications are delivered before the writer returns, so after
/// `Board/checkForChanges()` every change is already pending here, complete and in order. Only the keys a
/// publication names are looked at, resolved for the session's context.
struct ChangeTracker {
    private struct Seen: Equatable {
        var value: Value?
        var layer: Layer?
    }

    /// The keys publications named since the last look, in order, filled by the board's subscription.
    private final class Pending: Sendable {
        let keys = Locked<[String]>([])
        let subscription = Locked<ChangeSubscription?>(nil)
    }

    private var seen: [String: Seen] = [:]
    private let pending = Pending()

    /// Starts with every key's current value as seen.
    init(board: Board, context: EvaluationContext) {
        let pending = self.pending
        let subscription = board.subscribe { event in
            guard case .published(let publication) = event else { return }
            pending.keys.withLock { $0.append(contentsOf: publication.changes.map(\.key)) }
        }
        pending.subscription.withLock { $0 = subscription }
        seen = Self.current(board: board, context: context)
    }

    /// The changes since the last call (or since ``accept(_:board:context:)``), which count as seen from now on.
    mutating func changes(board: Board, context: EvaluationContext) -> [ValueChange] {
        let keys = pending.keys.withLock { keys in
            defer { keys.removeAll() }
            return keys
        }
        guard !keys.isEmpty else { return [] }
        let snapshot = board.snapshot
        var changes: [ValueChange] = []
        var looked = Set<String>()
        // Keys still defined in registry order, then removed ones.
        let named = Set(keys)
        let ordered = snapshot.registry.keys.filter(named.contains) + keys.filter { snapshot.registry[$0] == nil }
        for key in ordered where looked.insert(key).inserted {
            let state = snapshot.registry[key] == nil ? nil : Self.seen(key, in: snapshot, context: context)
            guard seen[key] != state else { continue }
            defer { seen[key] = state }
            guard let state else {
                changes.append(ValueChange(key: key, old: seen[key]?.value, new: nil, layer: nil))
                continue
            }
            var actor: String?
            if state.layer == .runtime, case .runtime(let who, _, _, _, _) = snapshot.entry(key)?.override?.origin {
                actor = who
            }
            changes.append(ValueChange(key: key, old: seen[key]?.value, new: state.value, layer: state.layer,
                                       actor: actor))
        }
        return changes
    }

    /// Marks the current values of `keys` as seen, after the REPL itself changed them: the user has just been
    /// shown the result, so they are not news. Other keys keep their old state, so a change made elsewhere
    /// at the same moment is still reported.
    mutating func accept(_ keys: [String], board: Board, context: EvaluationContext) {
        let snapshot = board.snapshot
        for key in keys {
            seen[key] = snapshot.registry[key] == nil ? nil : Self.seen(key, in: snapshot, context: context)
        }
    }

    /// Marks every current value as seen: after a context change, values differ because the question changed.
    mutating func acceptAll(board: Board, context: EvaluationContext) {
        seen = Self.current(board: board, context: context)
    }

    private static func seen(_ key: String, in snapshot: Snapshot, context: EvaluationContext) -> Seen {
        let resolution = snapshot.resolve(key, context: context)
        return Seen(value: resolution.value, layer: resolution.layer)
    }

    private static func current(board: Board, context: EvaluationContext) -> [String: Seen] {
        let snapshot = board.snapshot
        var result: [String: Seen] = [:]
        for key in snapshot.registry.keys { result[key] = seen(key, in: snapshot, context: context) }
        return result
    }
}

extension ValueChange {
    /// `app.theme changed: system → dark (runtime, set by alice)`.
    func rendered(terminal: Terminal) -> String {
        guard let new else { return "\(terminal.bold(key)) removed (was \(old?.shortText ?? "—"))" }
        var source = layer?.rawValue ?? "no layer"
        if let actor { source += ", set by \(PersonName.shown(actor))" }
        guard let old else { return "\(terminal.bold(key)) added: \(new.shortText) (\(source))" }
        return "\(terminal.bold(key)) changed: \(old.shortText) → \(terminal.yellow(new.shortText)) (\(source))"
    }
}
