import Foundation
package import Switchboard

extension TargetingDescription {
    /// The targeting as `explain` prints it under its `targeting:` line, from the same description the web
    /// console's flag page draws: prerequisites, the rules in order with their names, conditions (segments with
    /// theirs) and what each serves, the flag's own rollout, each with its `file:line`.
    ///
    ///     prerequisites:
    ///       search.new_ranking must be true  flags/search.yaml:190
    ///     rule 1 'staff first'  flags/search.yaml:167
    ///       when in segment staff: email ends_with "@example.com"
    ///       serves true
    ///     rule 2 'beta'  flags/search.yaml:170
    ///       when in segment beta_testers: plan in ["pro", "team"]
    ///       serves a rollout:
    ///          50 %  true  (weight 50 of 100)
    ///          50 %  false  (weight 50 of 100)
    ///     everyone else: a rollout  flags/search.yaml:181
    ///          10 %  true  (weight 10 of 100)
    ///          90 %  false  (weight 90 of 100)
    package func rendered(terminal: Terminal, indent: String = "    ") -> String {
        func at(_ place: String?) -> String {
            place.map { "  " + terminal.dim($0) } ?? ""
        }
        var out = ""
        if !prerequisites.isEmpty {
            out += indent + "prerequisites:\n"
            for requirement in prerequisites {
                out += indent + "  \(requirement.key) must be \(requirement.value.lineText)"
                    + at(requirement.location.map(Self.place)) + "\n"
            }
        }
        for rule in rules {
            out += indent + terminal.bold(rule.label) + at(Self.place(rule.location)) + "\n"
            let conditions = rule.segments.map { segment in
                "in segment \(segment.name)"
                    + (segment.conditions.isEmpty ? "" : ": " + segment.conditions.joined(separator: " and "))
            } + rule.conditions
            for (index, condition) in (conditions.isEmpty ? ["always"] : conditions).enumerated() {
                out += indent + (index == 0 ? "  when " : "   and ") + condition + "\n"
            }
            out += Self.rendered(rule.serves, indent: indent + "  ")
        }
        if !rollout.isEmpty {
            out += indent + (rules.isEmpty ? "a rollout" : "everyone else: a rollout") + at(rolloutLocation.map(Self.place)) + "\n"
            out += Self.rendered(rollout, indent: indent + "  ", saying: nil)
        }
        if let logic {
            out += indent + "JSON Logic: \(logic)\n"
        }
        return out
    }

    /// What a rule serves: `serves true (variant on)`, or its rollout's buckets one a line.
    private static func rendered(_ served: [Served], indent: String, saying intro: String? = "serves") -> String {
        func value(_ item: Served) -> String {
            item.value.lineText + (item.variant.map { " (variant \($0))" } ?? "")
        }
        if served.count == 1, served[0].weight == nil, let intro {
            return indent + "\(intro) \(value(served[0]))\n"
        }
        var out = intro.map { indent + "\($0) a rollout:\n" } ?? ""
        for item in served {
            guard let weight = item.weight else { continue }
            let percent = weight.total > 0 ? (Double(weight.of) / Double(weight.total) * 1000).rounded() / 10 : 0
            // As the page writes it: "10 %", "33.3 %".
            let number = percent == percent.rounded() ? String(Int(percent)) : String(percent)
            let column = String(repeating: " ", count: max(0, 5 - number.count)) + number
            out += indent + " \(column) %  \(value(item))  (weight \(weight.of) of \(weight.total))\n"
        }
        return out
    }
}
