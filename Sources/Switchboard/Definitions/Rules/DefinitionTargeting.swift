package import YAML

/// A definition's targeting, compiled to the flagd engine: Switchboard's readable `rules`, `segments`,
/// `rollout`, `requires` and `enabled`, a `targeting:` JSONLogic block, or a flag from a flagd file.
///
/// The engine chooses an outcome by name; ``outcomes`` says what each name serves and why, so `explain` can name
/// the rule, the segment and the rollout bucket.
package struct DefinitionTargeting: Sendable {
    /// What one outcome of the targeting serves, and which part of the definition chose it.
    package struct Outcome: Sendable, Hashable {
        /// The value served.
        package var value: Value
        /// The definition's variant with this value, if any.
        package var variant: String?
        /// The 1-based rule number that serves it, when a rule does.
        package var rule: Int?
        /// The rule's `name`, when it has one.
        package var ruleName: String?
        /// The segments the rule requires.
        package var segments: [String] = []
        /// The rollout bucket (1-based) and its weight out of the total, when a rollout chose the value.
        package var bucket: (index: Int, weight: Int, total: Int)? {
            get { bucketIndex.map { ($0, bucketWeight, bucketTotal) } }
            set {
                bucketIndex = newValue?.index
                bucketWeight = newValue?.weight ?? 0
                bucketTotal = newValue?.total ?? 0
            }
        }
        var bucketIndex: Int?
        var bucketWeight = 0
        var bucketTotal = 0
        /// Where the rule (or the flag's own rollout) that serves it is written.
        package var location: SourceLocation?

        /// What chose it, for the default layer's row of `explain`: "rule 1 'staff first'", "rule 2 'beta',
        /// rollout bucket 1", "rollout bucket 2" (the flag's own rollout).
        package var source: String {
            var parts: [String] = []
            if let rule { parts.append("rule \(rule)" + (ruleName.map { " '\($0)'" } ?? "")) }
            if let index = bucketIndex { parts.append("rollout bucket \(index)") }
            return parts.isEmpty ? (variant.map { "variant \($0)" } ?? "targeting") : parts.joined(separator: ", ")
        }

        /// A sentence for `explain`: "rule 2 'beta' (segment beta_testers), rollout bucket 1 (20 of 100)".
        package var summary: String {
            var parts: [String] = []
            if let rule {
                var text = "rule \(rule)" + (ruleName.map { " '\($0)'" } ?? "")
                if !segments.isEmpty { text += " (segment \(segments.joined(separator: ", ")))" }
                parts.append(text + " matched")
            }
            if let (index, weight, total) = bucket {
                parts.append("rollout bucket \(index) (weight \(weight) of \(total))")
            }
            if parts.isEmpty { return variant.map { "variant \($0)" } ?? "targeting" }
            return parts.joined(separator: ", ")
        }

        /// Outcomes are equal when they serve the same value for the same reason.
        package static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs.value == rhs.value && lhs.variant == rhs.variant && lhs.rule == rhs.rule
                && lhs.bucketIndex == rhs.bucketIndex
        }

        /// Hashes the value and the rule.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(value)
            hasher.combine(rule)
            hasher.combine(bucketIndex)
        }
    }

    /// A flag that must resolve to a value for this definition's targeting to apply.
    package struct Prerequisite: Sendable, Hashable {
        /// The other flag's key.
        package var key: String
        /// The value it must resolve to.
        package var value: Value
        /// Where the requirement is written.
        package var location: SourceLocation?
    }

    /// One of the readable `rules`, as `explain` asks about it when the targeting served the default: did its
    /// conditions hold for the context, and does it serve a rollout (which needs a targeting key)?
    package struct Rule: Sendable {
        /// The 1-based rule number.
        package var number: Int
        /// The rule's `name`, when it has one.
        package var name: String?
        /// The rule's conditions, segments included.
        package var condition: JSONLogic
        /// Whether the rule serves a `rollout`.
        package var rollsOut: Bool
        /// Where the rule is written.
        package var location: SourceLocation

        /// "rule 2 'beta'".
        package var label: String { "rule \(number)" + (name.map { " '\($0)'" } ?? "") }
    }

    /// The flag as the flagd engine evaluates it: outcome names as variants.
    package let flag: FlagdFlag
    /// The readable rules, in order (none for a JSONLogic block or a flagd file).
    package internal(set) var rules: [Rule] = []
    /// Where the flag's own `rollout` is written, when it has one.
    package internal(set) var rolloutLocation: SourceLocation?
    /// The compiled conditions of each segment the rules use, by name, so a description can show a segment apart
    /// from the rule's own conditions (``TargetingDescription``).
    package internal(set) var segmentConditions: [String: Value] = [:]
    /// What each outcome name serves.
    package let outcomes: [String: Outcome]
    /// Flags that must resolve to given values first.
    package internal(set) var prerequisites: [Prerequisite]
    /// Whether the definition came from a flagd file (its default may be absent, and it evaluates exactly as flagd).
    package let isFlagd: Bool

    init(flag: FlagdFlag, outcomes: [String: Outcome], prerequisites: [Prerequisite] = [], isFlagd: Bool) {
        self.flag = flag
        self.outcomes = outcomes
        self.prerequisites = prerequisites
        self.isFlagd = isFlagd
    }

    /// Why the targeting served the flag's default for a context without a targeting key, when a rollout is the
    /// reason: the first rule whose conditions hold serves a rollout, or none holds and the flag's own rollout
    /// would have chosen. `nil` when the context has a targeting key, or a rollout is not why.
    package func rolloutWithoutTargetingKey(context: EvaluationContext, staticContext: [String: Value]) -> String? {
        guard context.targetingKey == nil else { return nil }
        let run = LogicRun(context: context, staticAttributes: staticContext, flagKey: flag.key, timestamp: nil,
                           algorithm: flag.fractionalAlgorithm ?? .v3)
        for rule in rules {
            guard let holds = try? run.evaluate(rule.condition.root, in: nil), JS.truthy(holds) else { continue }
            guard rule.rollsOut else { return nil }
            return "\(rule.label) matched; its rollout needs a targeting key, so the flag's default was served"
        }
        guard rolloutLocation != nil else { return nil }
        return "no rule matched; the flag's rollout needs a targeting key, so its default was served"
    }
}

/// The parts of a definition that targeting is compiled from, kept as nodes until every file's segments are known.
/// A class, so the many definitions without targeting carry one empty reference instead of six empty nodes.
final class PendingTargeting: Sendable {
    let rules: Node?
    let rollout: Node?
    let requires: Node?
    let enabled: Node?
    let targeting: Node?
    let bucketing: Node?
    /// `schedule:`, compiled into one definition per step once the definition's own targeting is.
    let schedule: Node?
    let location: SourceLocation

    init(
        rules: Node?, rollout: Node?, requires: Node?, enabled: Node?, targeting: Node?, bucketing: Node?,
        schedule: Node? = nil, location: SourceLocation
    ) {
        self.schedule = schedule
        self.rules = rules
        self.rollout = rollout
        self.requires = requires
        self.enabled = enabled
        self.targeting = targeting
        self.bucketing = bucketing
        self.location = location
    }
}
