import Switchboard

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

/// Remembers every key's resolved value as the user last saw it, so that changes made elsewhere (another
/// REPL, `switchboard set`, the admin API) can be reported at the next prompt.
///
/// It compares snapshots instead of listening to ``Board/changes``: a comparison made right after
/// ``Board/checkForChanges()`` is complete and in order, while a stream consumed on another task may not have
/// delivered everything yet when the prompt is drawn.
struct ChangeTracker {
    private struct Seen: Equatable {
        var value: Value?
        var layer: Layer?
    }

    private var seen: [String: Seen] = [:]

    /// Starts with every key's current value as seen.
    init(board: Board, context: EvaluationContext) {
        seen = Self.current(board: board, context: context)
    }

    /// The changes since the last call (or since ``accept(_:board:context:)``), which count as seen from now on.
    mutating func changes(board: Board, context: EvaluationContext) -> [ValueChange] {
        let now = Self.current(board: board, context: context)
        defer { seen = now }
        let snapshot = board.snapshot
        var changes: [ValueChange] = []
        for key in snapshot.registry.keys {
            let state = now[key]
            guard seen[key] != state else { continue }
            var actor: String?
            if state?.layer == .runtime, case .runtime(let who, _, _) = snapshot.entry(key)?.override?.origin {
                actor = who
            }
            changes.append(ValueChange(key: key, old: seen[key]?.value, new: state?.value, layer: state?.layer,
                                       actor: actor))
        }
        for key in seen.keys.sorted() where now[key] == nil {
            changes.append(ValueChange(key: key, old: seen[key]?.value, new: nil, layer: nil))
        }
        return changes
    }

    /// Marks the current values of `keys` as seen, after the REPL itself changed them: the user has just been
    /// shown the result, so they are not news. Other keys keep their old state, so a change made elsewhere
    /// at the same moment is still reported.
    mutating func accept(_ keys: [String], board: Board, context: EvaluationContext) {
        let registry = board.registry
        for key in keys {
            guard registry[key] != nil else {
                seen[key] = nil
                continue
            }
            let resolution = board.resolve(key, context: context)
            seen[key] = Seen(value: resolution.value, layer: resolution.layer)
        }
    }

    /// Marks every current value as seen: after a context change, values differ because the question changed.
    mutating func acceptAll(board: Board, context: EvaluationContext) {
        seen = Self.current(board: board, context: context)
    }

    private static func current(board: Board, context: EvaluationContext) -> [String: Seen] {
        var result: [String: Seen] = [:]
        for key in board.registry.keys {
            let resolution = board.resolve(key, context: context)
            result[key] = Seen(value: resolution.value, layer: resolution.layer)
        }
        return result
    }
}

extension ValueChange {
    /// `app.theme changed: system → dark (runtime, set by alice)`.
    func rendered(terminal: Terminal) -> String {
        guard let new else { return "\(terminal.bold(key)) removed (was \(old?.shortText ?? "—"))" }
        var source = layer?.rawValue ?? "no layer"
        if let actor { source += ", set by \(actor)" }
        guard let old else { return "\(terminal.bold(key)) added: \(new.shortText) (\(source))" }
        return "\(terminal.bold(key)) changed: \(old.shortText) → \(terminal.yellow(new.shortText)) (\(source))"
    }
}
