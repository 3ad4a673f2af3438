import YAML

/// Compiles Switchboard's readable targeting into the flagd engine, checking it with a diagnostic at every node
/// that is wrong.
///
/// ```yaml
/// rules:
///   - name: staff
///     when:
///       - { attribute: email, ends_with: "@example.com" }
///     serve: true
///   - segment: beta_testers
///     rollout: [{ value: true, weight: 20 }, { value: false, weight: 80 }]
/// ```
///
/// Rules run in order and the first whose conditions all hold serves its value, variant or rollout; then the
/// definition's own `rollout`, if any; then the default.
struct RuleCompiler {
    /// A condition's operators and the JSONLogic they become.
    static let operators = [
        "equals", "not_equals", "in", "not_in", "starts_with", "ends_with", "contains", "matches", "less_than",
        "less_than_or_equal", "greater_than", "greater_than_or_equal", "semver", "before", "after", "exists",
    ]
    static let ruleFields = ["name", "when", "segment", "serve", "variant", "rollout"]

    let segments: [String: (conditions: Node, location: SourceLocation)]
    var diagnostics: [Diagnostic] = []
    /// Each segment compiled once, whether or not a rule uses it, so its mistakes are reported once; `nil` for a
    /// segment with errors.
    private var compiledSegments: [String: Value?] = [:]

    /// Whether the segments are not known yet (a definition checked on its own, see
    /// `DefinitionParser.checkTargeting(of:)`): then a segment name stands for a condition, never an error.
    var segmentsUnknown = false

    init(segments: [String: (conditions: Node, location: SourceLocation)]) {
        self.segments = segments
        for name in segments.keys.sorted() {
            compiledSegments[name] = compileSegment(segments[name]!.conditions)
        }
    }

    /// The error for an `enabled:` (of a definition or a schedule step) that is no bool, worded as a `default`'s:
    /// `enabled of app.x: expected a bool, found the string "maybe"`, with `yes`'s hint where it applies.
    static func enabledProblem(_ node: Node, key: String) -> ValueProblem {
        let problem = Definition.typeProblem(Value(node: node), expected: .bool)
            ?? ValueProblem("expected a bool, found \(node.kindDescription)")
        return ValueProblem("enabled of \(key): \(problem.message)", hint: problem.hint ?? "write true or false")
    }

    mutating func error(_ node: Node, _ message: String, hint: String? = nil) {
        diagnostics.append(.error(at: node.location, message, hint: hint))
    }

    /// Compiles a definition's targeting; `nil` when it has none or it is invalid (diagnostics say why).
    mutating func compile(_ pending: PendingTargeting, for definition: Definition) -> DefinitionTargeting? {
        let errorsBefore = diagnostics.count
        var outcomes: [String: DefinitionTargeting.Outcome] = [:]
        var variants: [String: Value] = [:]
        func addOutcome(_ name: String, _ outcome: DefinitionTargeting.Outcome) {
            outcomes[name] = outcome
            variants[name] = outcome.value
        }
        let defaultName = "#default"
        addOutcome(defaultName, .init(value: definition.defaultValue, variant: definition.defaultVariant))

        var state = FlagdFlag.State.enabled
        if let enabled = pending.enabled {
            guard case .bool(let on)? = enabled.scalar?.value else {
                let problem = Self.enabledProblem(enabled, key: definition.key)
                error(enabled, problem.message, hint: problem.hint)
                return nil
            }
            state = on ? .enabled : .disabled
        }
        var algorithm: FractionalAlgorithm?
        if let bucketing = pending.bucketing {
            switch bucketing.scalar?.text {
            case "v3": algorithm = .v3
            case "v2": algorithm = .v2
            default: error(bucketing, "bucketing must be v3 (flagd's current algorithm) or v2 (the earlier one)")
            }
        }

        var logic: Value?
        if let targeting = pending.targeting {
            if pending.rules != nil || pending.rollout != nil {
                error(targeting, "\(definition.key) has both `targeting` and `rules`/`rollout`",
                      hint: "use the readable rules, or a JSONLogic `targeting` block, not both")
                return nil
            }
            guard !definition.variants.isEmpty else {
                error(targeting, "a JSONLogic `targeting` block chooses a variant, and \(definition.key) has no variants",
                      hint: "add `variants:`, or use `rules:` to serve values")
                return nil
            }
            for variant in definition.variants {
                addOutcome(variant.name, .init(value: variant.value, variant: variant.name))
            }
            let rule = JSONLogic(node: targeting)
            diagnostics.append(contentsOf: rule.diagnostics)
            if diagnostics.count > errorsBefore { return nil }
            // As for a flagd file: a name the rule can give that is no variant fails every evaluation reaching it.
            diagnostics += FlagdFlag.unknownResults(of: RuleSource(node: targeting), flag: definition.key,
                                                    variants: definition.variants.map(\.name))
            let flag = FlagdFlag(key: definition.key, state: state, variants: variants, defaultVariant: defaultName,
                                 targeting: rule, fractionalAlgorithm: algorithm, location: definition.location)
            return DefinitionTargeting(flag: flag, outcomes: outcomes, isFlagd: false)
        }

        var branches: [Value] = []
        var rules: [DefinitionTargeting.Rule] = []
        if let rulesNode = pending.rules {
            guard let items = rulesNode.items else {
                error(rulesNode, "rules must be a list, found \(rulesNode.kindDescription)",
                      hint: "write each rule as an item starting with `- `")
                return nil
            }
            for (index, rule) in items.enumerated() {
                guard let branch = compileRule(rule, number: index + 1, definition: definition, add: addOutcome)
                else { continue }
                branches.append(branch.condition)
                branches.append(branch.result)
                rules.append(DefinitionTargeting.Rule(
                    number: index + 1, name: rule.pairs?.first { $0.key.scalar?.text == "name" }?.value.scalar?.text,
                    condition: JSONLogic(branch.condition), rollsOut: branch.result.objectValue != nil,
                    location: rule.location))
            }
        }
        var fallback: Value = .null
        if let rollout = pending.rollout {
            var base = DefinitionTargeting.Outcome(value: .null)
            base.location = rollout.location
            fallback = compileRollout(rollout, prefix: "rollout", base: base, definition: definition,
                                      add: addOutcome) ?? .null
        }
        if diagnostics.count > errorsBefore { return nil }
        // A rule without conditions matches everyone: whatever follows it never runs.
        // As written, not as compiled: a segment checked before the segments are known compiles to `true` too.
        let unconditional = Set((pending.rules?.items ?? []).indices.filter { index in
            let fields = pending.rules?.items?[index].pairs ?? []
            let when = fields.first { $0.key.scalar?.text == "when" }?.value
            let segment = fields.contains { $0.key.scalar?.text == "segment" }
            return !segment && (when == nil || when?.items?.isEmpty == true)
        }.map { $0 + 1 })
        if let catchAll = rules.firstIndex(where: { unconditional.contains($0.number) }) {
            let later = rules[(catchAll + 1)...]
            var unreached: [String] = []
            if let next = later.first, let last = later.last {
                unreached.append(next.number == last.number ? "rule \(next.number)"
                                     : "rules \(next.number)–\(last.number)")
            }
            if pending.rollout != nil { unreached.append("the rollout") }
            if let place = later.first?.location ?? pending.rollout?.location {
                let single = unreached == ["the rollout"] || (unreached.count == 1 && later.count == 1)
                diagnostics.append(.warning(
                    at: place,
                    "\(unreached.joined(separator: " and ")) of \(definition.key) never run\(single ? "s" : ""): rule "
                        + "\(rules[catchAll].number) has no `when` or `segment`, so it matches everyone",
                    hint: later.isEmpty ? "give rule \(rules[catchAll].number) a condition, or remove the rollout"
                        : "give rule \(rules[catchAll].number) a condition, or move it last"))
            }
        }
        if branches.isEmpty && fallback == .null {
            logic = nil
        } else if branches.isEmpty {
            logic = fallback
        } else {
            logic = .object(["if": .list(branches + [fallback])])
        }
        let rule = logic.map { JSONLogic($0) }
        if let rule, !rule.diagnostics.isEmpty {
            // The readable syntax is checked above; anything left is a bug in this compiler, reported as such.
            diagnostics.append(contentsOf: rule.diagnostics.map {
                Diagnostic(.error, at: pending.location, "internal: compiled targeting is invalid: \($0.message)")
            })
            return nil
        }
        if rule == nil && state == .enabled && pending.requires == nil { return nil }
        let flag = FlagdFlag(key: definition.key, state: state, variants: variants, defaultVariant: defaultName,
                             targeting: rule, fractionalAlgorithm: algorithm, location: definition.location)
        var targeting = DefinitionTargeting(flag: flag, outcomes: outcomes, isFlagd: false)
        targeting.rules = rules
        targeting.rolloutLocation = pending.rollout?.location
        for name in Set(outcomes.values.flatMap(\.segments)) {
            if let condition = compiledSegments[name] ?? nil { targeting.segmentConditions[name] = condition }
        }
        return targeting
    }

    private mutating func compileRule(
        _ rule: Node, number: Int, definition: Definition,
        add: (String, DefinitionTargeting.Outcome) -> Void
    ) -> (condition: Value, result: Value)? {
        guard let pairs = rule.pairs else {
            error(rule, "a rule must be a mapping with `when` and `serve`, found \(rule.kindDescription)")
            return nil
        }
        var fields: [String: Node] = [:]
        for pair in pairs {
            let name = pair.key.scalar?.text ?? ""
            if Self.ruleFields.contains(name) {
                fields[name] = pair.value
            } else {
                let hint = Suggestions.nearest(to: name, in: Self.ruleFields).map(Message.didYouMean(one:))
                    ?? "a rule has \(Self.ruleFields.joined(separator: ", "))"
                error(pair.key, "unknown field '\(name)' in rule \(number) of \(definition.key)", hint: hint)
            }
        }
        var conditions: [Value] = []
        var segmentNames: [String] = []
        if let segment = fields["segment"] {
            if let (condition, name) = segmentCondition(segment) {
                conditions.append(condition)
                segmentNames.append(name)
            }
        }
        if let when = fields["when"] {
            let items = when.items ?? [when]
            for item in items {
                if let segment = item.pairs?.first(where: { $0.key.scalar?.text == "segment" }), item.pairs?.count == 1 {
                    if let (condition, name) = segmentCondition(segment.value) {
                        conditions.append(condition)
                        segmentNames.append(name)
                    }
                } else if let condition = compileCondition(item) {
                    conditions.append(condition)
                }
            }
        }
        let ruleName = fields["name"]?.scalar?.text
        var base = DefinitionTargeting.Outcome(value: .null, rule: number, ruleName: ruleName, segments: segmentNames)
        base.location = rule.location
        let served = ["serve", "variant", "rollout"].filter { fields[$0] != nil }
        guard served.count == 1 else {
            error(rule, served.isEmpty ? "rule \(number) of \(definition.key) serves nothing"
                                       : "rule \(number) of \(definition.key) has both `\(served[0])` and `\(served[1])`",
                  hint: "give exactly one of `serve: VALUE`, `variant: NAME` or `rollout: [...]`")
            return nil
        }
        let condition: Value = switch conditions.count {
        case 0: .bool(true)
        case 1: conditions[0]
        default: .object(["and": .list(conditions)])
        }
        let name = "rule\(number)"
        if let rollout = fields["rollout"] {
            guard let result = compileRollout(rollout, prefix: name, base: base, definition: definition, add: add)
            else { return nil }
            return (condition, result)
        }
        guard let (value, variant) = servedValue(fields["serve"], variantNode: fields["variant"], definition: definition)
        else { return nil }
        base.value = value
        base.variant = variant
        add(name, base)
        return (condition, .string(name))
    }

    /// The value a rule or rollout bucket serves: `serve: VALUE` (checked against the definition) or
    /// `variant: NAME`.
    private mutating func servedValue(_ serve: Node?, variantNode: Node?, definition: Definition)
        -> (Value, String?)?
    {
        if let variantNode {
            let names = definition.variants.map(\.name)
            guard let name = variantNode.scalar?.text, let value = definition.value(ofVariant: name) else {
                error(variantNode, "'\(variantNode.scalar?.text ?? variantNode.kindDescription)' is not a variant of \(definition.key)",
                      hint: names.isEmpty ? "\(definition.key) has no variants; use `serve:` with a value"
                                          : "variants: \(names.joined(separator: ", "))")
                return nil
            }
            return (value, name)
        }
        guard let serve else { return nil }
        switch Value.from(serve, as: definition.type).flatMap(definition.fit) {
        case .failure(let problem):
            // `serve: treatment`, where `treatment` is a variant's name rather than its value.
            let name = serve.scalar?.text
            let hint = name.flatMap { definition.value(ofVariant: $0) == nil ? nil : $0 }
                .map { "'\($0)' is a variant's name: serve it with `variant: \($0)`" }
            error(serve, "served value of \(definition.key): \(problem.message)", hint: hint ?? problem.hint)
            return nil
        case .success(let value):
            return (value, definition.variant(for: value))
        }
    }

    private mutating func compileRollout(
        _ node: Node, prefix: String, base: DefinitionTargeting.Outcome, definition: Definition,
        add: (String, DefinitionTargeting.Outcome) -> Void
    ) -> Value? {
        guard let items = node.items, !items.isEmpty else {
            error(node, "a rollout is a list of `{ value: V, weight: N }` (or `variant:`) items",
                  hint: "for example `rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]`")
            return nil
        }
        // Bucket items only: flagd's fractional then buckets by [flagKey, targetingKey], as flagd files do.
        var buckets: [Value] = []
        var pending: [(String, DefinitionTargeting.Outcome)] = []
        var total = 0
        var ok = true
        for (index, item) in items.enumerated() {
            guard let pairs = item.pairs else {
                error(item, "a rollout item must be a mapping with `value` (or `variant`) and `weight`")
                ok = false
                continue
            }
            var fields: [String: Node] = [:]
            for pair in pairs {
                let key = pair.key.scalar?.text ?? ""
                if ["value", "variant", "weight"].contains(key) {
                    fields[key] = pair.value
                } else {
                    error(pair.key, "unknown field '\(key)' in a rollout item",
                          hint: Suggestions.nearest(to: key, in: ["value", "variant", "weight"]).map(Message.didYouMean(one:)))
                    ok = false
                }
            }
            guard let weightNode = fields["weight"], case .int(let weight)? = weightNode.scalar?.value, weight >= 0 else {
                error(fields["weight"] ?? item, "a rollout weight must be a whole number, 0 or more",
                      hint: "weights are relative: 20 and 80 split 20% / 80%")
                ok = false
                continue
            }
            guard fields["value"] == nil || fields["variant"] == nil else {
                error(item, "a rollout item has both `value` and `variant`; give one")
                ok = false
                continue
            }
            guard let (value, variant) = servedValue(fields["value"], variantNode: fields["variant"], definition: definition)
            else {
                if fields["value"] == nil && fields["variant"] == nil {
                    error(item, "a rollout item needs `value` or `variant`")
                }
                ok = false
                continue
            }
            // Counted up to just past the allowed sum, which is refused below: no weight can overflow it.
            total = min(total + min(weight, Int(Int32.max) + 1), Int(Int32.max) + 1)
            var outcome = base
            outcome.value = value
            outcome.variant = variant
            outcome.bucketIndex = index + 1
            outcome.bucketWeight = weight
            let name = "\(prefix)/\(index + 1)"
            pending.append((name, outcome))
            buckets.append(.list([.string(name), .int(weight)]))
        }
        guard ok else { return nil }
        guard total > 0, total <= Int(Int32.max) else {
            if total == 0 {
                error(node, "the rollout weights of \(definition.key) add up to 0",
                      hint: "give at least one value a weight above 0; weights are shares of the whole")
            } else {
                error(node, "the rollout weights of \(definition.key) add up to more than \(Int32.max)",
                      hint: "weights are shares of the whole: divide them all by the same number")
            }
            return nil
        }
        for (name, var outcome) in pending {
            outcome.bucketTotal = total
            add(name, outcome)
        }
        return .object(["fractional": .list(buckets)])
    }

    private mutating func segmentCondition(_ node: Node) -> (Value, String)? {
        guard let name = node.scalar?.text else {
            error(node, "segment must name a segment, found \(node.kindDescription)")
            return nil
        }
        guard let compiled = compiledSegments[name] else {
            if segmentsUnknown { return (.bool(true), name) }
            let hint = Suggestions.nearest(to: name, in: segments.keys.sorted()).map(Message.didYouMean(one:))
                ?? (segments.isEmpty ? "define it under a top-level `segments:`" : "segments: \(segments.keys.sorted().joined(separator: ", "))")
            error(node, "unknown segment '\(name)'", hint: hint)
            return nil
        }
        guard let conditions = compiled else { return nil }
        return (conditions, name)
    }

    /// A segment's conditions, all of which must hold.
    mutating func compileSegment(_ node: Node) -> Value? {
        let items = node.items ?? [node]
        var conditions: [Value] = []
        for item in items {
            guard let condition = compileCondition(item) else { return nil }
            conditions.append(condition)
        }
        return conditions.count == 1 ? conditions[0] : .object(["and": .list(conditions)])
    }

    /// One condition: `{ attribute: NAME, OPERATOR: OPERAND }`.
    mutating func compileCondition(_ node: Node) -> Value? {
        guard let pairs = node.pairs else {
            error(node, "a condition is a mapping like `{ attribute: plan, in: [pro, team] }`, found \(node.kindDescription)")
            return nil
        }
        var attribute: String?
        var operation: (name: String, operand: Node, key: Node)?
        for pair in pairs {
            let key = pair.key.scalar?.text ?? ""
            if key == "attribute" {
                attribute = pair.value.scalar?.text
                if attribute == nil { error(pair.value, "attribute must be a name, found \(pair.value.kindDescription)") }
            } else if Self.operators.contains(key) {
                if operation != nil {
                    error(pair.key, "a condition has one operator; split this into two conditions")
                    return nil
                }
                operation = (key, pair.value, pair.key)
            } else {
                let hint = Suggestions.nearest(to: key, in: Self.operators + ["attribute"]).map(Message.didYouMean(one:))
                    ?? "operators: \(Self.operators.joined(separator: ", "))"
                error(pair.key, "unknown operator '\(key)'", hint: hint)
                return nil
            }
        }
        guard let attribute else {
            error(node, "the condition names no `attribute`", hint: "for example `{ attribute: country, equals: DE }`")
            return nil
        }
        guard let (name, operandNode, keyNode) = operation else {
            error(node, "the condition on '\(attribute)' has no operator",
                  hint: "operators: \(Self.operators.joined(separator: ", "))")
            return nil
        }
        let variable: Value = .object(["var": .string(attribute)])
        let operand = Value(node: operandNode)
        func expect(_ ok: Bool, _ what: String) -> Bool {
            if !ok { error(operandNode, "'\(name)' takes \(what), found \(operandNode.kindDescription)") }
            return ok
        }
        switch name {
        case "equals": return .object(["===": .list([variable, operand])])
        case "not_equals": return .object(["!==": .list([variable, operand])])
        case "in", "not_in":
            guard expect(operand.listValue != nil, "a list") else { return nil }
            let test: Value = .object(["in": .list([variable, operand])])
            return name == "in" ? test : .object(["!": test])
        case "starts_with", "ends_with":
            guard expect(operand.stringValue != nil, "a string") else { return nil }
            return .object([.init(name): .list([variable, operand])])
        case "contains":
            guard expect(operand.type != .list && operand.type != .object, "a value") else { return nil }
            return .object(["in": .list([operand, variable])])
        case "matches":
            guard expect(operand.stringValue != nil, "a regular expression") else { return nil }
            guard RegularExpression(operand.stringValue!) != nil else {
                error(operandNode, "invalid regular expression '\(operand.stringValue!)'")
                return nil
            }
            return .object(["matches": .list([variable, operand])])
        case "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal":
            guard expect(operand.doubleValue != nil, "a number") else { return nil }
            let symbol = ["less_than": "<", "less_than_or_equal": "<=", "greater_than": ">",
                          "greater_than_or_equal": ">="][name]!
            // JSONLogic reads a missing attribute as null, which compares as 0; a rule on a number must not match
            // a context that has none.
            // `!= null` rather than `missing`: the variable's path is compiled once, `missing` parses it each time.
            let present: Value = .object(["!=": .list([variable, .null])])
            return .object(["and": .list([present, .object([symbol: .list([variable, operand])])])])
        case "semver":
            guard let text = operand.stringValue ?? operandNode.scalar?.text else {
                _ = expect(false, "an operator and a version such as \">= 1.2.0\"")
                return nil
            }
            let (symbol, version) = Self.splitSemanticVersion(text)
            guard SemanticVersion.Operator(rawValue: symbol) != nil, SemanticVersion(version) != nil else {
                error(operandNode, "invalid semver condition '\(text)'",
                      hint: "write an operator (= != < <= > >= ~ ^) and a version, e.g. \">= 2.1.0\"")
                return nil
            }
            return .object(["sem_ver": .list([variable, .string(symbol), .string(version)])])
        case "before", "after":
            guard Timestamp.seconds(operand) != nil else {
                error(operandNode, "'\(name)' takes a date (2026-12-01 or 2026-12-01T10:00:00Z), found '\(operandNode.scalar?.text ?? operandNode.kindDescription)'")
                return nil
            }
            return .object([.init(name): .list([variable, operand])])
        case "exists":
            guard case .bool(let wanted) = operand else {
                _ = expect(false, "true or false")
                return nil
            }
            // A missing attribute reads as null, and `==` with null is true for null alone (and JS's undefined).
            return .object([wanted ? "!=" : "==": .list([variable, .null])])
        default:
            error(keyNode, "unknown operator '\(name)'")
            return nil
        }
    }

    /// Splits ">= 1.2.0" into (">=", "1.2.0"); a bare version means "=".
    static func splitSemanticVersion(_ text: String) -> (String, String) {
        let trimmed = text.trimmingWhitespace
        let symbols = ["!=", "<=", ">=", "=", "<", ">", "~", "^"]
        for symbol in symbols where trimmed.hasPrefix(symbol) {
            return (symbol, String(trimmed.dropFirst(symbol.count)).trimmingWhitespace)
        }
        return ("=", trimmed)
    }
}
