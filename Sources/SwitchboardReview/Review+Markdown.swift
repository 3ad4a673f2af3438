import Foundation
import Switchboard

extension Review {
    /// The most characters a pull request comment holds on the usual forges.
    package static let commentLimit = 65_536

    /// The review as Markdown for a pull request comment: a summary line, a table of the changed keys with their
    /// impact, then the breaking risks and the notes. Cut, with a note saying so, before `limit` characters.
    package func markdown(limit: Int = Review.commentLimit) -> String {
        var head = "### Flag changes: `\(base)` → `\(self.head)`\n\n"
        head += changes.isEmpty ? "No definition or override changed.\n" : summary + "\n"
        var blocks: [String] = []
        if !changes.isEmpty {
            blocks.append("\n| key | change | fields | impact |\n|---|---|---|---|\n")
            for change in changes {
                let fields = change.fields.map { "`\($0)`" }.joined(separator: ", ")
                let what = change.renamedFrom.map { "renamed from `\($0)`" } ?? change.change.rawValue
                let impact = Self.escape(([impactText(change.impact)] + laterImpactTexts(change))
                    .joined(separator: "; "))
                blocks.append("| `\(change.key)` | \(what) | \(fields) | \(impact) |\n")
            }
        }
        if !breaking.isEmpty {
            blocks.append("\n**Breaking** (\(breaking.count)):\n\n")
            for risk in breaking { blocks.append("- `\(risk.key)`: \(Self.escape(risk.reason))\n") }
        }
        for note in notes { blocks.append("\n_Note: \(note)._\n") }
        var out = head
        for (index, block) in blocks.enumerated() {
            let cut = "\n_Cut here: \(blocks.count - index) more entries did not fit in a comment; "
                + "run `switchboard diff` for the rest._\n"
            // Bytes, not characters (counting those is linear): there are never fewer, so the cut is never late.
            let room = index == blocks.count - 1 ? limit : limit - cut.utf8.count
            guard out.utf8.count + block.utf8.count < room else {
                out += cut
                break
            }
            out += block
        }
        return out
    }

    /// "3 keys changed (1 added, 2 modified); 1 breaking risk.", or "no key changed; 0 breaking risks."
    package var summary: String {
        let counts = ChangeKind.allCases.compactMap { kind -> String? in
            let count = changes.count { $0.change == kind }
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        let keys = changes.isEmpty ? "no key changed"
            : "\(changes.count) key\(changes.count == 1 ? "" : "s") changed (\(counts.joined(separator: ", ")))"
        return keys + "; \(breaking.count) breaking risk\(breaking.count == 1 ? "" : "s")."
    }

    /// Each later impact of a change, from its moment: "from 2027-01-05 09:00 UTC: 1,476 of 10,000 contexts …".
    package func laterImpactTexts(_ change: KeyChange) -> [String] {
        change.laterImpacts.map { "from \(Timestamp.display($0.at)): " + impactText($0.impact) }
    }

    /// "4,012 of 10,000 contexts change: true 10% (1,003), false 90% (8,997) → true 50% (5,015), false 50% (4,985)".
    package func impactText(_ impact: Impact?) -> String {
        guard let impact else { return "" }
        guard impact.changed > 0 else {
            return "no change for \(Impact.grouped(impact.contexts)) contexts"
        }
        return "\(Impact.grouped(impact.changed)) of \(Impact.grouped(impact.contexts)) contexts change: "
            + Impact.distribution(impact.before, of: impact.contexts) + " → "
            + Impact.distribution(impact.after, of: impact.contexts)
    }

    /// Text safe inside a table cell or a list item: pipes escaped, lines joined.
    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
