package import Switchboard

/// The fields of a definition that differ between two versions, each with what changed inside it.
///
/// Fields are named as the YAML names them (`type`, `default`, `variants`, `constraints`, `rules`, `rollout`,
/// `targeting`, `prerequisites`, `enabled`, `schedule`, `expires`, `owner`, `description`, `tags`, `kind`,
/// `renamed_from`),
/// plus `override` for the value an override file gives the key.
package struct DefinitionComparison: Sendable {
    /// The fields that differ, in the order above.
    package private(set) var fields: [String] = []
    /// What changed, one line per change: "rule 2 'beta': serves true 10, false 90 → true 50, false 50".
    package private(set) var details: [String] = []

    /// The fields whose change can change the value a context is served.
    package static let servingFields: Set<String> = [
        "type", "default", "variants", "rules", "rollout", "targeting", "prerequisites", "enabled", "schedule",
        "override",
    ]

    /// Whether a changed field can change the value a context is served.
    package var changesServedValue: Bool { fields.contains(where: Self.servingFields.contains) }

    /// Compares the base's and the head's version of a definition, with the values their override files give it.
    package init(base: Definition, head: Definition, baseOverride: Value?, headOverride: Value?) {
        if base.type != head.type { add("type", "type: \(base.type) → \(head.type)") }
        let baseDefault = Self.defaultText(base), headDefault = Self.defaultText(head)
        if baseDefault != headDefault { add("default", "default: \(baseDefault) → \(headDefault)") }
        compareVariants(base.variants, head.variants)
        compareConstraints(base, head)
        compareTargeting(base.targeting, head.targeting)
        compareSchedule(base.schedule, head.schedule)
        if base.expires != head.expires {
            let old = Self.text(base.expires?.description), new = Self.text(head.expires?.description)
            add("expires", "expires: \(old) → \(new)")
        }
        if base.owner != head.owner { add("owner", "owner: \(Self.text(base.owner)) → \(Self.text(head.owner))") }
        if base.description != head.description { add("description", "description changed") }
        if base.tags != head.tags {
            add("tags", "tags: [\(base.tags.joined(separator: ", "))] → [\(head.tags.joined(separator: ", "))]")
        }
        if base.kind != head.kind { add("kind", "kind: \(base.kind.rawValue) → \(head.kind.rawValue)") }
        if base.renamedFrom != head.renamedFrom {
            add("renamed_from", "renamed_from: [\(base.renamedFrom.joined(separator: ", "))] → "
                + "[\(head.renamedFrom.joined(separator: ", "))]")
        }
        if baseOverride != headOverride {
            add("override", "override: \(Self.text(baseOverride)) → \(Self.text(headOverride))")
        }
        fields = Self.order.filter(fields.contains)
    }

    private static let order = [
        "type", "default", "variants", "constraints", "rules", "rollout", "targeting", "prerequisites", "enabled",
        "schedule", "expires", "owner", "description", "tags", "kind", "renamed_from", "override",
    ]

    /// The steps added and removed, each as its moment (in UTC, so a step written in another zone is the same
    /// step) and what it serves.
    private mutating func compareSchedule(_ base: Schedule?, _ head: Schedule?) {
        func steps(_ schedule: Schedule?) -> [String] {
            (schedule?.steps ?? []).map { "\(Timestamp.display($0.at)) \($0.summary)" }
        }
        let old = steps(base), new = steps(head)
        guard old != new else { return }
        let parts = new.filter { !old.contains($0) }.map { "added \($0)" }
            + old.filter { !new.contains($0) }.map { "removed \($0)" }
        add("schedule", "schedule: " + parts.joined(separator: "; "))
    }

    private mutating func add(_ field: String, _ detail: String) {
        if !fields.contains(field) { fields.append(field) }
        details.append(detail)
    }

    private mutating func compareVariants(_ base: [Definition.Variant], _ head: [Definition.Variant]) {
        guard base != head else { return }
        let old = Dictionary(base.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(head.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        var parts: [String] = []
        for variant in head where old[variant.name] == nil { parts.append("added \(variant.name)") }
        for variant in base where new[variant.name] == nil { parts.append("removed \(variant.name)") }
        for variant in head {
            if let before = old[variant.name], before != variant.value {
                parts.append("\(variant.name) \(Self.text(before)) → \(Self.text(variant.value))")
            }
        }
        add("variants", "variants: " + (parts.isEmpty ? "reordered" : parts.joined(separator: "; ")))
    }

    private mutating func compareConstraints(_ base: Definition, _ head: Definition) {
        func list(_ values: [Value]?) -> String {
            values.map { "[" + $0.map(Self.text).joined(separator: ", ") + "]" } ?? "(none)"
        }
        func number(_ value: Double?) -> String {
            guard let value else { return "(none)" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        if base.allowedValues != head.allowedValues {
            add("constraints", "values: \(list(base.allowedValues)) → \(list(head.allowedValues))")
        }
        if base.minimum != head.minimum {
            add("constraints", "min: \(number(base.minimum)) → \(number(head.minimum))")
        }
        if base.maximum != head.maximum {
            add("constraints", "max: \(number(base.maximum)) → \(number(head.maximum))")
        }
        if base.pattern != head.pattern {
            add("constraints", "pattern: \(Self.text(base.pattern)) → \(Self.text(head.pattern))")
        }
    }

    private mutating func compareTargeting(_ base: DefinitionTargeting?, _ head: DefinitionTargeting?) {
        let ruleChanges = Self.ruleChanges(base?.rules ?? [], base, head?.rules ?? [], head)
        for detail in ruleChanges { add("rules", detail) }
        let oldRollout = Self.serves(base, rule: nil), newRollout = Self.serves(head, rule: nil)
        if oldRollout != newRollout {
            add("rollout", "rollout: \(oldRollout ?? "(none)") → \(newRollout ?? "(none)")")
        }
        // A JSONLogic block or a flagd flag: what the readable rules and rollout do not explain.
        if ruleChanges.isEmpty, oldRollout == newRollout,
           base?.flag.targeting?.source != head?.flag.targeting?.source {
            add("targeting", "targeting changed")
        }
        let oldPrerequisites = (base?.prerequisites ?? []).map { "\($0.key) = \(Self.text($0.value))" }
        let newPrerequisites = (head?.prerequisites ?? []).map { "\($0.key) = \(Self.text($0.value))" }
        if oldPrerequisites != newPrerequisites {
            var parts = newPrerequisites.filter { !oldPrerequisites.contains($0) }.map { "added \($0)" }
            parts += oldPrerequisites.filter { !newPrerequisites.contains($0) }.map { "removed \($0)" }
            add("prerequisites", "prerequisites: " + (parts.isEmpty ? "reordered" : parts.joined(separator: "; ")))
        }
        let wasEnabled = base?.flag.state != .disabled, isEnabled = head?.flag.state != .disabled
        if wasEnabled != isEnabled { add("enabled", "enabled: \(wasEnabled) → \(isEnabled)") }
    }

    /// The changes of the readable rules: a rule is matched by its name when it has one, else by its number.
    private static func ruleChanges(
        _ base: [DefinitionTargeting.Rule], _ baseTargeting: DefinitionTargeting?,
        _ head: [DefinitionTargeting.Rule], _ headTargeting: DefinitionTargeting?
    ) -> [String] {
        typealias Rule = DefinitionTargeting.Rule
        func match(_ rule: Rule, in rules: [Rule]) -> Rule? {
            if let name = rule.name { return rules.first { $0.name == name } }
            return rules.first { $0.number == rule.number && $0.name == nil }
        }
        var details: [String] = []
        for rule in head {
            guard let old = match(rule, in: base) else {
                details.append("\(rule.label) added: serves \(serves(headTargeting, rule: rule.number) ?? "?")")
                continue
            }
            var parts: [String] = []
            if old.number != rule.number { parts.append("moved from position \(old.number)") }
            if old.condition.source != rule.condition.source { parts.append("conditions changed") }
            let before = serves(baseTargeting, rule: old.number), after = serves(headTargeting, rule: rule.number)
            if before != after { parts.append("serves \(before ?? "?") → \(after ?? "?")") }
            if !parts.isEmpty { details.append("\(rule.label): " + parts.joined(separator: "; ")) }
        }
        for rule in base where match(rule, in: head) == nil {
            details.append("\(rule.label) removed")
        }
        return details
    }

    /// What a rule (or, for `nil`, the flag's own rollout) serves: "true", or its rollout "true 10, false 90";
    /// variants by name.
    /// `nil` when there is no such rule or rollout.
    static func serves(_ targeting: DefinitionTargeting?, rule: Int?) -> String? {
        guard let targeting else { return nil }
        let outcomes = targeting.outcomes.values.filter { outcome in
            outcome.rule == rule && (rule != nil || outcome.bucket != nil)
        }
        guard !outcomes.isEmpty else { return nil }
        let buckets = outcomes.compactMap { outcome in outcome.bucket.map { (outcome, $0) } }
        // A variant by its name, so that a change of the variant's value is one change, of `variants`.
        func name(_ outcome: DefinitionTargeting.Outcome) -> String { outcome.variant ?? text(outcome.value) }
        guard !buckets.isEmpty else { return outcomes.map(name).sorted().joined(separator: ", ") }
        return buckets.sorted { $0.1.index < $1.1.index }
            .map { "\(name($0.0)) \($0.1.weight)" }.joined(separator: ", ")
    }

    private static func defaultText(_ definition: Definition) -> String {
        guard definition.hasDefault else { return "(none)" }
        return definition.defaultVariant ?? text(definition.defaultValue)
    }

    /// A value as the details show it: a string as itself, anything else as JSON; `(none)` for no value.
    static func text(_ value: Value?) -> String {
        value.map { Impact.label(for: $0) } ?? "(none)"
    }

    private static func text(_ string: String?) -> String { string ?? "(none)" }
}
