import Switchboard
import SwitchboardReferences
import SwitchboardTerminal

extension ReferenceReport {
    /// The `--json` document: `definitions`, `undefined`, `dynamic` and `unreferenced`.
    var json: String {
        func position(_ position: SourcePosition) -> [String: Value] {
            ["file": .string(position.file), "line": .int(position.line), "column": .int(position.column)]
        }
        let definitions = definitions.map { definition in
            Value.object([
                "key": .string(definition.key),
                "references": .list(definition.references.map { reference in
                    .object(position(reference.position).merging(["form": .string(reference.form.rawValue)]) { $1 })
                }),
            ])
        }
        let undefined = undefined.map { undefined in
            var fields = position(undefined.reference.position)
            fields["key"] = .string(undefined.reference.key)
            fields["suggestion"] = undefined.suggestion.map(Value.string) ?? .null
            return Value.object(fields)
        }
        return Value.object([
            "definitions": .list(definitions),
            "undefined": .list(undefined),
            "dynamic": .list(dynamic.map { .object(position($0)) }),
            "unreferenced": .list(unreferenced.map(Value.string)),
        ]).json
    }

    /// The text report: each key with its references, then the undefined and dynamic keys, then a summary.
    func text(files: Int) -> String {
        var lines: [String] = []
        for definition in definitions {
            if definition.references.isEmpty {
                lines.append(definition.key + (definition.isAllowedUnreferenced
                    ? "  (no references; allowed)" : "  (no references)"))
            } else {
                lines.append("\(definition.key)  (\(Message.count(definition.references.count, "reference")))")
                lines += Table.alignedLines(definition.references.map { ["\($0.position)", $0.form.rawValue] })
                    .map { "  " + $0 }
            }
        }
        if !undefined.isEmpty {
            lines.append("")
            lines.append("Keys no file defines:")
            lines += Table.alignedLines(undefined.map { item in
                let hint = item.suggestion.map { ": " + Message.didYouMean(one: $0) } ?? ""
                return [item.reference.key, "\(item.reference.position)", item.reference.form.rawValue + hint]
            }).map { "  " + $0 }
        }
        if !dynamic.isEmpty {
            lines.append("")
            lines.append("Keys built at run time (dynamic):")
            for position in dynamic { lines.append("  \(position)") }
        }
        lines.append("")
        let referenced = definitions.count { !$0.references.isEmpty }
        lines.append("\(Message.count(files, "Swift file")) read: \(referenced) of \(definitions.count) "
            + "definitions referenced, \(unreferenced.count) unreferenced, \(undefined.count) undefined, "
            + "\(dynamic.count) dynamic.")
        return lines.joined(separator: "\n") + "\n"
    }
}
