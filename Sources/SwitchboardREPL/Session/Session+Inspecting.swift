import Foundation
import Switchboard
import SwitchboardTerminal

/// The commands that only look: list, get, explain, changed, log, context and help.
extension Session {
    func list(_ pattern: String?) -> Reply {
        var keys = board.registry.keys
        if let pattern {
            let glob = Glob(pattern)
            keys = keys.filter(glob.selects(key:))
            if keys.isEmpty {
                let suggestions = board.registry.patternSuggestions(for: pattern)
                let message = Message.noKeyMatches(pattern: pattern, suggestions: suggestions)
                return failure(message.text, hint: message.hint)
            }
        }
        guard !keys.isEmpty else { return Reply(output: "no definitions\n") }
        var table = Table(header: ["KEY", "TYPE", "VALUE", "LAYER"])
        let registry = board.registry
        for key in keys {
            let resolution = board.resolve(key, context: context)
            let expiry = board.expiresText(of: key, serving: resolution).map { " (\($0))" } ?? ""
            table.rows.append([
                key, registry[key]?.type.rawValue ?? "", resolution.value?.shortText ?? resolution.absentValueText,
                resolution.isDisabled ? terminal.dim("disabled") : layerText(resolution) + expiry,
            ])
        }
        return Reply(output: table.render(terminal: terminal))
    }

    func get(_ key: String, at time: Double? = nil) -> Reply {
        guard board.registry[key] != nil else { return unknownKey(key) }
        let resolution = time.map { board.resolve(key, at: Date(timeIntervalSince1970: $0), context: context) }
            ?? board.resolve(key, context: context)
        guard let value = resolution.value else {
            if resolution.isDisabled { return Reply(output: Resolution.disabledLine(key: key) + "\n") }
            return failure("\(key) did not resolve: \(resolution.errorMessage ?? "no value")",
                           hint: resolution.errorCode.map { "error code \($0.rawValue)" })
        }
        return Reply(output: "\(key) = \(value.lineText) \(terminal.dim("(\(source(of: resolution, key: key)))"))\n")
    }

    func explain(_ key: String, at time: Double? = nil) -> Reply {
        let asked = time.map { board.explain(key, context: context, at: Date(timeIntervalSince1970: $0)) }
        guard let explanation = asked ?? board.explain(key, context: context) else { return unknownKey(key) }
        var output = explanation.rendered(terminal: terminal)
        if let expiring = board.expiringOverride(key), explanation.resolution.layer == .runtime {
            output += "the runtime override \(ExpiryInput.expiresText(at: expiring.expiry, now: expiring.now)) "
                + terminal.dim("(\(expiring.override.expiresAt ?? ""))") + "\n"
        }
        if !context.isEmpty { output += terminal.dim("for the context \(contextSummary)") + "\n" }
        return Reply(output: output)
    }

    func changed() -> Reply {
        var table = Table(header: ["KEY", "DEFAULT", "VALUE", "LAYER", "ORIGIN"])
        let snapshot = board.snapshot
        for entry in snapshot.entries {
            let definition = entry.definition
            let resolution = board.resolve(definition.key, context: context)
            let isDefault = resolution.layer == .default && definition.hasDefault
                && resolution.value == definition.defaultValue
            guard !isDefault else { continue }
            let origin: String = if let layer = resolution.layer, layer != .default {
                entry.overrides.last { $0.layer == layer }?.origin.description ?? ""
            } else {
                Self.describe(resolution.reason) ?? ""
            }
            table.rows.append([
                definition.key, definition.hasDefault ? definition.defaultValue.shortText : "—",
                resolution.value?.shortText ?? "—",
                resolution.layer?.rawValue ?? "none", origin,
            ])
        }
        guard !table.rows.isEmpty else { return Reply(output: "every key has its default value\n") }
        return Reply(output: table.render(terminal: terminal))
    }

    func log(_ count: Int) -> Reply {
        do throws(StoreError) {
            return Reply(output: AuditRecord.renderedLog(try board.auditLog(limit: count), terminal: terminal))
        } catch {
            return failure(error.message, hint: error.hint)
        }
    }

    func help(_ topic: String?) -> Reply {
        guard let topic else {
            let width = CommandInfo.all.map(\.usage.count).max() ?? 0
            var output = "Commands:\n"
            for info in CommandInfo.all {
                output += "  " + terminal.bold(info.usage) + String(repeating: " ", count: width - info.usage.count)
                    + "  " + info.summary + "\n"
            }
            output += "`help COMMAND` tells more. Tab completes commands, keys and values; ↑ recalls history.\n"
            return Reply(output: output)
        }
        guard let info = CommandInfo.named(topic) else {
            let hint = Suggestions.nearestCommand(to: topic).map(Message.didYouMean(one:)) ?? "`help` lists them"
            return failure("no command '\(topic)'", hint: hint)
        }
        var output = "usage: \(terminal.bold(info.usage))\n\n\(info.summary).\n\n"
        output += info.details.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }.joined()
        if !info.aliases.isEmpty { output += "Also: \(info.aliases.joined(separator: ", ")).\n" }
        return Reply(output: output)
    }

    // MARK: - Context

    func showContext() -> Reply {
        guard !context.isEmpty else {
            return Reply(output: "the context is empty; set attributes with `context NAME=VALUE`\n")
        }
        var output = ""
        if let key = context.targetingKey { output += "targetingKey = \(Value.string(key).json)\n" }
        for name in context.attributes.keys.sorted() {
            output += "\(name) = \(context.attributes[name]?.json ?? "null")\n"
        }
        return Reply(output: output)
    }

    func setContext(_ assignments: [Command.ContextAssignment]) -> Reply {
        var context = self.context
        for assignment in assignments {
            context.assign(assignment.name, text: assignment.text, quoted: assignment.isQuoted)
        }
        change(context: context)
        return showContext()
    }

    func clearContext(_ names: [String]) -> Reply {
        guard !names.isEmpty else {
            change(context: .empty)
            return Reply(output: "the context is empty\n")
        }
        var context = self.context
        for name in names {
            if name == "targetingKey", context.targetingKey != nil {
                context.targetingKey = nil
            } else if context.attributes.removeValue(forKey: name) == nil {
                let known = (self.context.targetingKey == nil ? [] : ["targetingKey"])
                    + self.context.attributes.keys.sorted()
                let hint = Suggestions.nearest(to: name, in: known).map(Message.didYouMean(one:))
                    ?? (known.isEmpty ? "the context is empty" : "it has \(known.joined(separator: ", "))")
                return failure("the context has no '\(name)'", hint: hint)
            }
        }
        change(context: context)
        return showContext()
    }

    private func change(context: EvaluationContext) {
        self.context = context
        tracker.acceptAll(board: board, context: context)
    }

    // MARK: - Helpers

    /// `runtime`, `runtime, expires in 1 h 59 min`, `default, variant control`, `default, targeting match`: where a
    /// value came from (and, given its key, how long a runtime override has left).
    func source(of resolution: Resolution, key: String? = nil) -> String {
        var parts = [resolution.layer?.rawValue ?? "no layer"]
        if let key, let expiry = board.expiresText(of: key, serving: resolution) { parts.append(expiry) }
        if let variant = resolution.variant { parts.append("variant \(variant)") }
        if let why = Self.describe(resolution.reason) { parts.append(why) }
        return parts.joined(separator: ", ")
    }

    /// The reason in words, when it says more than the layer does.
    static func describe(_ reason: Reason) -> String? {
        switch reason {
        case .static, .override: nil
        case .default: "no rule matched"
        case .targetingMatch: "targeting match"
        case .split: "rollout split"
        case .disabled: "disabled"
        case .error: "error"
        case .cached: "cached"
        case .unknown: "unknown reason"
        }
    }

    /// The layer of a resolution for the last column of `list`, in colour when something overrides the default.
    private func layerText(_ resolution: Resolution) -> String {
        guard let layer = resolution.layer else { return terminal.red("error") }
        return layer == .default ? layer.rawValue : terminal.yellow(layer.rawValue)
    }

    /// The context in one line: `targetingKey=user-1 plan="pro"`.
    var contextSummary: String {
        var parts: [String] = []
        if let key = context.targetingKey { parts.append("targetingKey=\(key)") }
        for (name, value) in context.attributes.sorted(by: { $0.key < $1.key }) {
            parts.append("\(name)=\(value.json)")
        }
        return parts.joined(separator: " ")
    }
}
