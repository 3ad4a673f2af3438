package import SwitchboardTerminal

extension Review {
    /// The review for a terminal: one block per changed key (what changed, the impact), then the breaking risks
    /// and the notes; coloured when `terminal` has colours.
    package func text(terminal: Terminal) -> String {
        var out = terminal.bold("\(base) → \(head)") + ": " + summary + "\n"
        for change in changes {
            let mark: String = switch change.change {
            case .added: terminal.green("+ added    ")
            case .removed: terminal.red("- removed  ")
            case .renamed: terminal.yellow("~ renamed  ")
            case .modified: terminal.yellow("~ modified ")
            }
            out += "\n" + mark + terminal.bold(change.key)
            if let renamedFrom = change.renamedFrom { out += " (from \(renamedFrom))" }
            if !change.fields.isEmpty { out += terminal.dim("  " + change.fields.joined(separator: ", ")) }
            out += "\n"
            for detail in change.details { out += "    \(detail)\n" }
            if let impact = change.impact {
                let line = "    impact: " + impactText(impact)
                out += (impact.changed > 0 ? terminal.cyan(line) : terminal.dim(line)) + "\n"
            }
            for (later, text) in zip(change.laterImpacts, laterImpactTexts(change)) {
                let line = "    " + text
                out += (later.impact.changed > 0 ? terminal.cyan(line) : terminal.dim(line)) + "\n"
            }
        }
        if !breaking.isEmpty {
            out += "\n" + terminal.red(terminal.bold("breaking (\(breaking.count)):")) + "\n"
            for risk in breaking { out += "  " + terminal.red(risk.key) + ": \(risk.reason)\n" }
        }
        for note in notes { out += "\n" + terminal.dim("note: \(note)") + "\n" }
        return out
    }
}
