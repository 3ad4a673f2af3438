package import YAML

/// What a definition's targeting does, in the words of its YAML: the rules in order with their names, conditions,
/// segments (with their own conditions) and what each serves (a value, a variant, or a rollout with its weights),
/// the flag's own rollout, its prerequisites and variants, each part with the `file:line` it is written at.
///
/// One description, decided here, for every face that shows targeting: the web console's flag page draws its
/// ``jsonValue``; rule labels ("rule 2 'beta'") and rollout buckets read as `explain`'s targeting line names them
/// (``DefinitionTargeting/Rule/label``).
package struct TargetingDescription: Sendable {
    /// One thing a rule or rollout serves.
    package struct Served: Sendable {
        /// The value.
        package var value: Value
        /// The variant with this value, if any.
        package var variant: String?
        /// The rollout bucket's weight and the total of all weights, when this is a rollout bucket.
        package var weight: (of: Int, total: Int)?
    }

    /// One rule.
    package struct Rule: Sendable {
        /// The 1-based number, as `explain` counts rules.
        package var number: Int
        /// The rule's `name`, when it has one.
        package var name: String?
        /// "rule 2 'beta'", as `explain` names it.
        package var label: String
        /// The rule's own conditions, as text ("plan in [\"pro\", \"team\"]"), all of which must hold.
        package var conditions: [String]
        /// The segments the rule requires, each with its conditions as text.
        package var segments: [(name: String, conditions: [String])]
        /// What the rule serves: one value, or the buckets of its rollout.
        package var serves: [Served]
        /// Where the rule is written.
        package var location: SourceLocation
    }

    /// The rules, in the order they are tried.
    package var rules: [Rule] = []
    /// The buckets of the flag's own rollout (for a context no rule matches), when it has one.
    package var rollout: [Served] = []
    /// Where the flag's own rollout is written.
    package var rolloutLocation: SourceLocation?
    /// Flags that must resolve to given values first, with where each requirement is written.
    package var prerequisites: [(key: String, value: Value, location: SourceLocation?)] = []
    /// The targeting as JSON Logic, when it is not written as readable rules (a `targeting:` block or a flagd
    /// file): compact JSON.
    package var logic: String?

    /// The description of a definition's targeting; `nil` when it has none.
    package init?(_ definition: Definition) {
        guard let targeting = definition.targeting else { return nil }
        let outcomes = targeting.outcomes.values
        func served(_ outcome: DefinitionTargeting.Outcome) -> Served {
            Served(value: outcome.value, variant: outcome.variant,
                   weight: outcome.bucket.map { (of: $0.weight, total: $0.total) })
        }
        for rule in targeting.rules {
            let own = outcomes.filter { $0.rule == rule.number }
                .sorted { ($0.bucketIndex ?? 0) < ($1.bucketIndex ?? 0) }
            let segmentNames = own.first?.segments ?? []
            let segments = segmentNames.map { name in
                (name: name, logic: targeting.segmentConditions[name])
            }
            // The compiled condition is the segments' conditions and the rule's own, joined by `and`: the rule's own
            // are what is left once the segments' are taken out.
            let source = rule.condition.source
            var parts = segments.contains { $0.logic == source } ? [source] : Self.conjuncts(source)
            for segment in segments {
                if let logic = segment.logic, let at = parts.firstIndex(of: logic) { parts.remove(at: at) }
            }
            rules.append(Rule(
                number: rule.number, name: rule.name, label: rule.label,
                conditions: parts.map(Self.text(of:)),
                segments: segments.map { ($0.name, $0.logic.map { Self.conjuncts($0).map(Self.text(of:)) } ?? []) },
                serves: own.map(served), location: rule.location))
        }
        rollout = outcomes.filter { $0.rule == nil && $0.bucketIndex != nil }
            .sorted { ($0.bucketIndex ?? 0) < ($1.bucketIndex ?? 0) }.map(served)
        rolloutLocation = targeting.rolloutLocation
        prerequisites = targeting.prerequisites.map { ($0.key, $0.value, $0.location) }
        if targeting.rules.isEmpty && rollout.isEmpty, let source = targeting.flag.targeting?.source {
            logic = source.json
        }
    }

    /// The parts of a condition that must all hold: the items of a top-level `and`, or the condition itself.
    static func conjuncts(_ logic: Value) -> [Value] {
        if case .object(let object) = logic, object.count == 1, let items = object["and"]?.listValue {
            // `greater_than` and friends compile to `and` of "present" and the comparison: one condition.
            if items.count == 2, comparison(items) != nil { return [logic] }
            return items
        }
        return [logic]
    }

    /// A condition as it reads in YAML: `plan in ["pro", "team"]`, `age >= 18`, `email ends_with "@x.com"`.
    /// Anything the readable syntax does not produce is shown as compact JSON Logic.
    static func text(of logic: Value) -> String {
        guard case .object(let object) = logic, object.count == 1, let (name, argument) = object.first else {
            return logic.json
        }
        let items = argument.listValue ?? [argument]
        func variable(_ value: Value) -> String? { value.objectValue?["var"]?.stringValue }
        switch name {
        case "===", "==", "!==", "!=":
            guard items.count == 2, let attribute = variable(items[0]) else { break }
            let negated = name.hasPrefix("!")
            if items[1] == .null { return "\(attribute) " + (negated ? "exists" : "does not exist") }
            return "\(attribute) \(negated ? "not_equals" : "equals") \(items[1].json)"
        case "in":
            guard items.count == 2 else { break }
            if let attribute = variable(items[0]) { return "\(attribute) in \(items[1].json)" }
            if let attribute = variable(items[1]) { return "\(attribute) contains \(items[0].json)" }
        case "!":
            guard items.count == 1, case .object(let inner) = items[0], let test = inner["in"]?.listValue,
                  test.count == 2, let attribute = variable(test[0])
            else { break }
            return "\(attribute) not_in \(test[1].json)"
        case "starts_with", "ends_with", "matches", "before", "after":
            guard items.count == 2, let attribute = variable(items[0]) else { break }
            return "\(attribute) \(name) \(items[1].json)"
        case "sem_ver":
            guard items.count == 3, let attribute = variable(items[0]), let symbol = items[1].stringValue,
                  let version = items[2].stringValue
            else { break }
            return "\(attribute) semver \"\(symbol) \(version)\""
        case "and":
            if let comparison = comparison(items) { return comparison }
            return items.map(text(of:)).joined(separator: " and ")
        case "or":
            return "(" + items.map(text(of:)).joined(separator: " or ") + ")"
        default:
            break
        }
        return logic.json
    }

    /// `age >= 18` from the compiled `and` of "age is present" and the comparison.
    private static func comparison(_ items: [Value]) -> String? {
        guard items.count == 2, case .object(let present) = items[0], let test = present["!="]?.listValue,
              test.count == 2, test[1] == .null, case .object(let compare) = items[1], compare.count == 1,
              let (symbol, operands) = compare.first, ["<", "<=", ">", ">="].contains(symbol),
              let pair = operands.listValue, pair.count == 2, let attribute = pair[0].objectValue?["var"]?.stringValue,
              pair[0] == test[0]
        else { return nil }
        return "\(attribute) \(symbol) \(pair[1].json)"
    }

    /// Where a part is written, as every face shows it: `file:line`.
    package static func place(_ location: SourceLocation) -> String {
        "\(location.file):\(location.line)"
    }

    /// The description as JSON, for the console's flag page (`GET /console/api/flags/{key}/targeting`).
    package var jsonValue: Value {
        func served(_ item: Served) -> Value {
            var object: [String: Value] = ["value": item.value]
            if let variant = item.variant { object["variant"] = .string(variant) }
            if let weight = item.weight {
                object["weight"] = .int(weight.of)
                object["total"] = .int(weight.total)
            }
            return .object(object)
        }
        func place(_ location: SourceLocation) -> Value { .string(Self.place(location)) }
        var document: [String: Value] = [
            "rules": .list(rules.map { rule in
                var object: [String: Value] = [
                    "number": .int(rule.number), "label": .string(rule.label),
                    "conditions": .list(rule.conditions.map(Value.string)),
                    "segments": .list(rule.segments.map { segment in
                        ["name": .string(segment.name), "conditions": .list(segment.conditions.map(Value.string))]
                    }),
                    "serves": .list(rule.serves.map(served)), "location": place(rule.location),
                ]
                if let name = rule.name { object["name"] = .string(name) }
                return .object(object)
            }),
            "rollout": .list(rollout.map(served)),
            "prerequisites": .list(prerequisites.map { requirement in
                var object: [String: Value] = ["key": .string(requirement.key), "value": requirement.value]
                if let location = requirement.location { object["location"] = place(location) }
                return .object(object)
            }),
        ]
        if let rolloutLocation { document["rolloutLocation"] = place(rolloutLocation) }
        if let logic { document["logic"] = .string(logic) }
        return .object(document)
    }
}
