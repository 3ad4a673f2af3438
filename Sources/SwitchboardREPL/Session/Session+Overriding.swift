import Foundation
import Switchboard
import SwitchboardTerminal

/// The commands that change something: set, toggle, reset and reload.
extension Session {
    func set(_ key: String, text: String, expiry: Command.Expiry? = nil) -> Reply {
        guard let definition = board.registry[key] else { return unknownKey(key) }
        let expiresAt: Date?
        do throws(ExpiryInput.Problem) {
            expiresAt = try expiry.map(moment)
        } catch {
            return failure(error.message, hint: "usage: set [--for DURATION | --until TIME] KEY VALUE")
        }
        do {
            try board.set(key, text: text, actor: actor, expiresAt: expiresAt)
        } catch {
            return failure(error, definition: definition)
        }
        return changed(key)
    }

    /// Flips a bool key with a runtime override. Without `--for` or `--until`, a runtime override that serves the key
    /// now and expires keeps its expiry: toggling a temporary override must not make it permanent.
    func toggle(_ key: String, expiry: Command.Expiry? = nil) -> Reply {
        guard let definition = board.registry[key] else { return unknownKey(key) }
        guard definition.type == .bool else {
            return failure("\(key) is \(definition.type.withArticle), not a bool; only bool keys toggle",
                           hint: "set \(key) VALUE")
        }
        let resolution = board.resolve(key, context: context)
        let current = resolution.value?.boolValue ?? definition.defaultValue.boolValue ?? false
        var expiresAt: Date?
        do throws(ExpiryInput.Problem) {
            expiresAt = try expiry.map(moment)
        } catch {
            return failure(error.message, hint: "usage: toggle [--for DURATION | --until TIME] KEY")
        }
        // The serving override may be stored under a name the key was renamed from.
        if expiry == nil, resolution.layer == .runtime,
           let expiring = ([key] + definition.renamedFrom).lazy.compactMap({ self.board.expiringOverride($0) }).first
        {
            expiresAt = Date(timeIntervalSince1970: expiring.expiry)
        }
        do {
            try board.set(key, to: .bool(!current), actor: actor, expiresAt: expiresAt)
        } catch {
            return failure(error, definition: definition)
        }
        return changed(key)
    }

    /// When an override given `expiry` now expires, by the board's clock.
    private func moment(_ expiry: Command.Expiry) throws(ExpiryInput.Problem) -> Date {
        let now = board.clock.now()
        switch expiry {
        case .after(let seconds): return Date(timeIntervalSince1970: now + seconds)
        case .until(let text): return Date(timeIntervalSince1970: try ExpiryInput.moment(of: text, now: now))
        }
    }

    func reset(_ key: String) -> Reply {
        let removed: Bool
        do {
            removed = try board.resetIfOverridden(key, actor: actor)
        } catch {
            if case .unknownKey = error { return unknownKey(key) }
            return failure(error, definition: nil)
        }
        guard board.registry[key] != nil else {
            return Reply(output: Message.removedOrphanedOverride(key: key).text + "\n")
        }
        guard removed else {
            let resolution = board.resolve(key, context: context)
            let none = Message.noRuntimeOverride(key: key).text
            if resolution.isDisabled { return Reply(output: "\(none); \(Message.disabled.text)\n") }
            return Reply(output: "\(none); it is \(resolution.value?.lineText ?? "—") "
                + terminal.dim("(\(source(of: resolution)))") + "\n")
        }
        return changed(key)
    }

    func resetAll() -> Reply {
        let keys: [String]
        do {
            keys = try board.liveOverrideKeys()
        } catch {
            return failure(error, definition: nil)
        }
        guard !keys.isEmpty else { return Reply(output: Message.noRuntimeOverrides.text + "\n") }
        // Which ones: a few by key, more by count.
        let question = keys.count == 1 ? "Remove the runtime override of \(keys[0])?"
            : keys.count <= 3 ? "Remove the runtime overrides of \(keys.joined(separator: ", "))?"
            : "Remove all \(keys.count) runtime overrides (\(keys.prefix(3).joined(separator: ", ")), …)?"
        if let confirm, !confirm(question + " [y/N] ") {
            return Reply(output: "nothing was removed\n")
        }
        do {
            try board.reset(keys: keys, actor: actor)
        } catch {
            return failure(error, definition: nil)
        }
        let changes = tracker.changes(board: board, context: context)
        var output = Message.removedRuntimeOverrides(keys.count).text + "\n"
        for change in changes { output += "  " + change.rendered(terminal: terminal) + "\n" }
        return Reply(output: output)
    }

    func reload() -> Reply {
        let report = board.reload()
        reportedReloadErrors = board.health.reloadErrors
        let diagnostics = report.diagnostics.map { errorTerminal.render($0) + "\n" }.joined()
        guard !report.hasErrors else {
            let errors = Message.count(report.errors.count, "error")
            return Reply(
                errors: diagnostics + errorTerminal.red(errors + " in the definitions")
                    + "; still using the last good definitions (\(Message.count(board.registry.count, "key")))\n",
                succeeded: false)
        }
        let files = report.registry.files.count
        var output = "reloaded \(report.registry.count) definition\(report.registry.count == 1 ? "" : "s") "
            + "from \(files) file\(files == 1 ? "" : "s")\n"
        for change in tracker.changes(board: board, context: context) {
            output += "  " + change.rendered(terminal: terminal) + "\n"
        }
        return Reply(output: output, errors: diagnostics)
    }

    // MARK: - Helpers


    /// The reply after this session changed `key`: its new value, which the user has now seen.
    private func changed(_ key: String) -> Reply {
        tracker.accept([key], board: board, context: context)
        let resolution = board.resolve(key, context: context)
        if resolution.isDisabled { return Reply(output: Resolution.disabledLine(key: key) + "\n") }
        let value = resolution.value?.lineText ?? "—"
        return Reply(output: "\(key) = \(value) \(terminal.dim("(\(source(of: resolution, key: key)))"))\n")
    }

    /// A refusal from the board, with the definition's type and constraints as the hint when it gives none.
    private func failure(_ error: Board.SetError, definition: Definition?) -> Reply {
        switch error {
        case .unknownKey(let key, let suggestions):
            let message = Message.unknownKey(key, suggestions: suggestions)
            return failure(message.text, hint: message.hint)
        case .invalidValue(let key, let problem):
            let message = Message.refusedValue(key: key, problem: problem, type: definition?.type)
            return failure(message.text, hint: message.hint)
        case .store(let problem):
            return failure(problem.message, hint: problem.hint)
        }
    }
}
