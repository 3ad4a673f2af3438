import Switchboard
import SwitchboardReferences
import SwitchboardTerminal

/// `switchboard stale`'s three renderings of a ``StaleReport``: text, Markdown and JSON.
extension StaleReport {
    /// One group of the report: a heading and a line per entry.
    private struct Group {
        var title: String
        var entries: [(location: String?, key: String, detail: String)]
    }

    private var groups: [Group] {
        func at(_ entry: Entry) -> String { "\(entry.file):\(entry.line)" }
        var groups = [
            Group(title: "Past their expires day", entries: expired.map { entry in
                (at(entry), entry.key, "expired \(entry.expires?.description ?? "")")
            }),
            Group(title: "No code references them", entries: unreferenced.map { (at($0), $0.key, "") }),
            Group(title: "Served one value to everyone for \(days) days", entries: constant.map { entry in
                let value = entry.value.map { "serves \($0.json)" } ?? "serves its default"
                let change = entry.lastChange.map { "; last override change \($0)" }
                    ?? "; no override change in the audit log"
                return (at(entry), entry.key, value + change)
            }),
        ]
        if let server {
            groups.append(Group(
                title: "Not evaluated by the server for \(days) days (counting since \(server.since))",
                entries: server.notEvaluated.map { entry in
                    let detail = if entry.evaluations == nil {
                        "not defined on the server"
                    } else if let last = entry.lastEvaluated {
                        "last evaluated \(last)"
                    } else {
                        "never evaluated"
                    }
                    return (at(entry), entry.key, detail)
                }))
            groups.append(Group(title: "Keys clients asked for that no file defines", entries: server.unknown.map {
                let lookups = Message.count($0.lookups, "lookup")
                let suggestion = $0.suggestion.map { ": " + Message.didYouMean(one: $0) } ?? ""
                return (nil, Self.shown($0.key), lookups + suggestion)
            }))
        }
        return groups.filter { !$0.entries.isEmpty }
    }

    /// A key any client could have sent, as the report shows it: as written when it is a well-formed key, else
    /// quoted (``Message/quoted(_:)``), so that no escape sequence reaches the terminal and no line break forges a
    /// line.
    private static func shown(_ key: String) -> String {
        KeySyntax.isValid(key) ? key : Message.quoted(key)
    }

    /// Said before the last line: a window the evidence does not cover, for the audit log when a flag is listed as
    /// constant, and for a server that has counted for less than the window.
    private var notes: [String] {
        var notes: [String] = []
        if !constant.isEmpty, !auditCoversWindow {
            notes.append(auditSince.map {
                "the audit log begins at \($0), less than \(days) days ago: the flags listed as constant are so by "
                    + "their definitions and by what the log holds; an override changed before it, or in another "
                    + "store (--store URL), is not seen"
            } ?? "the audit log is empty: the flags listed as constant are so by their definitions alone; an "
                + "override set in another store (--store URL) is not seen")
        }
        if let server, !server.countedWholeWindow {
            notes.append("the server has counted evaluations only since \(server.since), less than \(days) days: "
                + "none is listed as not evaluated until it has counted for \(days) days")
        }
        return notes
    }

    /// The last line: how many definitions can go, and why.
    private var summary: String {
        var parts = [
            "\(expired.count) expired", "\(unreferenced.count) unreferenced", "\(constant.count) constant",
        ]
        if let server {
            parts.append("\(server.notEvaluated.count) not evaluated")
            parts.append(Message.count(server.unknown.count, "unknown key"))
        }
        let keys = keys.count
        return "\(keys) of \(Message.count(definitionCount, "definition")) can go: " + parts.joined(separator: ", ")
    }

    /// The text report: a group per reason, each definition at `file:line`, then a summary.
    var text: String {
        var lines: [String] = []
        for group in groups {
            if !lines.isEmpty { lines.append("") }
            lines.append("\(group.title) (\(group.entries.count)):")
            // The keys and the details line up within a group.
            lines += Table.alignedLines(group.entries.map { entry in
                [entry.location, entry.key, entry.detail].compactMap { $0 }
            }).map { "  " + $0 }
        }
        for note in notes {
            if !lines.isEmpty { lines.append("") }
            lines.append("Note: \(note).")
        }
        if !lines.isEmpty { lines.append("") }
        lines.append(summary + ".")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Markdown report, for a pull request or an issue: a table per reason.
    var markdown: String {
        var lines = ["## Stale flags", ""]
        for group in groups {
            lines.append("### \(group.title) (\(group.entries.count))")
            lines.append("")
            lines.append("| key | defined at | |")
            lines.append("|---|---|---|")
            for entry in group.entries {
                let detail = entry.detail.replacing("|", with: "\\|")
                // A quoted key may hold `|` and backticks: `|` escaped for the table, and the code span fenced by
                // one backtick more than the longest run in the key.
                let key = entry.key.replacing("|", with: "\\|")
                var (run, longest) = (0, 0)
                for character in key {
                    run = character == "`" ? run + 1 : 0
                    longest = max(longest, run)
                }
                let fence = String(repeating: "`", count: longest + 1)
                let code = longest == 0 ? "`\(key)`" : "\(fence) \(key) \(fence)"
                lines.append("| \(code) | \(entry.location.map { "`\($0)`" } ?? "") | \(detail) |")
            }
            lines.append("")
        }
        for note in notes { lines += ["_Note: \(note)._", ""] }
        lines.append(summary + ".")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `--json` document.
    var json: String {
        func object(_ entry: Entry, _ extra: [String: Value] = [:]) -> Value {
            .object(["key": .string(entry.key), "file": .string(entry.file), "line": .int(entry.line)]
                .merging(extra) { $1 })
        }
        var document: [String: Value] = [
            "days": .int(days),
            "expired": .list(expired.map { entry in
                object(entry, ["expires": entry.expires.map { .string($0.description) } ?? .null])
            }),
            "unreferenced": .list(unreferenced.map { object($0) }),
            "constant": .list(constant.map {
                object($0, ["value": $0.value ?? .null, "last_change": $0.lastChange.map(Value.string) ?? .null])
            }),
            "server": .null,
            "audit_since": auditSince.map(Value.string) ?? .null,
            "audit_covers_window": .bool(auditCoversWindow),
        ]
        if let server {
            document["server"] = .object([
                "since": .string(server.since),
                "counted_whole_window": .bool(server.countedWholeWindow),
                "not_evaluated": .list(server.notEvaluated.map {
                    object($0, ["last_evaluated": $0.lastEvaluated.map(Value.string) ?? .null,
                                "evaluations": $0.evaluations.map(Value.int) ?? .null])
                }),
                "unknown": .list(server.unknown.map {
                    .object(["key": .string($0.key), "lookups": .int($0.lookups),
                             "suggestion": $0.suggestion.map(Value.string) ?? .null])
                }),
            ])
        }
        return Value.object(document).json
    }
}
