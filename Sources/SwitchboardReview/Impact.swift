package import Switchboard
import SwitchboardTerminal

/// How a change moves the served value over a population of contexts: how many contexts get another value, and
/// how many get each value before and after.
package struct Impact: Sendable, Hashable {
    /// The number of contexts evaluated.
    package var contexts: Int
    /// How many of them are served another value by the head than by the base.
    package var changed: Int
    /// How many contexts the base serves each value to, by ``label(for:)``.
    package var before: [String: Int]
    /// How many contexts the head serves each value to, by ``label(for:)``.
    package var after: [String: Int]

    /// Creates an impact.
    package init(contexts: Int, changed: Int, before: [String: Int], after: [String: Int]) {
        self.contexts = contexts
        self.changed = changed
        self.before = before
        self.after = after
    }

    /// What a served value is counted as: a string as itself, any other value as its JSON text, and the caller's
    /// own default (a disabled flag, a flagd flag without a default) as `(caller's default)`.
    package static func label(for value: Value?) -> String {
        guard let value else { return callerDefault }
        if case .string(let text) = value { return text }
        return value.json
    }

    /// The label of the caller's own default, served when a definition gives no value.
    package static let callerDefault = Resolution.callersDefaultText

    /// Evaluates a key on both sides for every context, with the real engine.
    ///
    /// - Parameters:
    ///   - base: the base snapshot and the key's position in it.
    ///   - head: the head snapshot and the key's position in it.
    ///   - population: the contexts.
    package static func measure(
        base: (snapshot: Snapshot, position: Int), head: (snapshot: Snapshot, position: Int),
        population: [EvaluationContext]
    ) -> Impact {
        // A definition that reads no context serves one value to all: no need to ask for each.
        let isDynamic = base.snapshot.entries[base.position].isDynamic || head.snapshot.entries[head.position].isDynamic
        guard isDynamic else {
            let old = base.snapshot.value(at: base.position, context: .empty)
            let new = head.snapshot.value(at: head.position, context: .empty)
            let count = population.count
            return Impact(contexts: count, changed: old == new ? 0 : count, before: [label(for: old): count],
                          after: [label(for: new): count])
        }
        // A key serves a few values: counted in small arrays, compared with ==, instead of hashing every value.
        var before = Tally(), after = Tally()
        var changed = 0
        for context in population {
            let old = base.snapshot.value(at: base.position, context: context)
            let new = head.snapshot.value(at: head.position, context: context)
            before.count(old)
            after.count(new)
            if old != new { changed += 1 }
        }
        return Impact(contexts: population.count, changed: changed, before: before.labelled, after: after.labelled)
    }

    /// Counts of served values, for the few values a key serves.
    private struct Tally {
        var values: [Value?] = []
        var counts: [Int] = []

        mutating func count(_ value: Value?) {
            if let index = values.firstIndex(of: value) {
                counts[index] += 1
            } else {
                values.append(value)
                counts.append(1)
            }
        }

        var labelled: [String: Int] {
            Dictionary(zip(values.map(Impact.label(for:)), counts), uniquingKeysWith: +)
        }
    }

    /// The counts of one side as text, most served first: "true 10% (1,003), false 90% (8,997)".
    package static func distribution(_ counts: [String: Int], of total: Int) -> String {
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return ordered.map { label, count in
            "\(label) \(percent(count, of: total)) (\(grouped(count)))"
        }.joined(separator: ", ")
    }

    /// A share as a whole percentage, or with one decimal under 10%: "40%", "0.3%".
    package static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0%" }
        let share = Double(count) * 100 / Double(total)
        if share == share.rounded() || share >= 10 { return "\(Int(share.rounded()))%" }
        return "\((share * 10).rounded() / 10)%"
    }

    /// A count with thousands separators: "10,000".
    package static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (count < 0 ? "-" : "") + out
    }
}
