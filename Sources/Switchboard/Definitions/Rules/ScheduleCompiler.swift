import YAML

extension RuleCompiler {
    /// A step's fields.
    static let stepFields = ["at", "serve", "variant", "rollout", "enabled"]

    /// What a step serves to everyone no rule matches, carried over from step to step.
    private enum Fallback {
        /// The definition's own default and rollout.
        case written
        case value(Value)
        case variant(String)
        case rollout(Node)
    }

    /// Compiles `schedule:`: checks every step (a time with its zone, in order, distinct; values of the
    /// definition's type within its constraints; variants that exist; rollouts as the flag-level `rollout:`), and
    /// compiles the definition in force from each step on. `nil` when a step is wrong (the diagnostics say where).
    mutating func compileSchedule(
        _ node: Node, pending: PendingTargeting, for definition: Definition,
        prerequisites: [DefinitionTargeting.Prerequisite]
    ) -> ScheduleBox? {
        let errorsBefore = diagnostics.count
        guard let items = node.items, !items.isEmpty else {
            error(node, "schedule must be a list of steps, found \(node.kindDescription)",
                  hint: "for example `schedule: [{ at: 2026-12-01T09:00:00Z, serve: true }]`")
            return nil
        }
        var steps: [Schedule.Step] = []
        var stepDefinitions: [Definition] = []
        var fallback = Fallback.written
        /// Where the value served to everyone was last set by a step, for `explain`'s default row.
        var fallbackLocation: SourceLocation?
        var enabled = pending.enabled
        // The last time read, whether or not its step was right, so order is checked across every step.
        var previousTime: (at: Double, text: String)?
        for item in items {
            guard let pairs = item.pairs else {
                error(item, "a schedule step is a mapping with `at:` and what it serves, found \(item.kindDescription)",
                      hint: "for example `- at: 2026-12-01T09:00:00Z` and `serve: true` below it")
                continue
            }
            var fields: [String: Node] = [:]
            var misspelt = false
            for pair in pairs {
                let name = pair.key.scalar?.text ?? ""
                if Self.stepFields.contains(name) {
                    fields[name] = pair.value
                } else {
                    misspelt = true
                    error(pair.key, "unknown field '\(name)' in a schedule step of \(definition.key)",
                          hint: Suggestions.nearest(to: name, in: Self.stepFields).map(Message.didYouMean(one:))
                            ?? "a step has `at:` and one of `serve:`, `variant:`, `rollout:`, and `enabled:`")
                }
            }
            guard let atNode = fields["at"] else {
                error(item, "a schedule step of \(definition.key) has no `at:`",
                      hint: "add `at:` with a time and its zone, e.g. `at: 2026-12-01T09:00:00Z`")
                continue
            }
            let atText = atNode.scalar?.text ?? ""
            guard let at = Timestamp.parseZoned(atText) else {
                if Timestamp.parse(atText) != nil, atText.count >= 19 {
                    error(atNode, "at: '\(atText)' has no time zone",
                          hint: "add Z for UTC or an offset: \(atText)Z, \(atText)+01:00")
                } else {
                    error(atNode, "at: '\(atText)' is not an RFC 3339 time",
                          hint: "for example 2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00")
                }
                continue
            }
            defer { previousTime = (at, atText) }
            if let previous = previousTime, at <= previous.at {
                error(atNode, at == previous.at
                        ? "two schedule steps of \(definition.key) at the same time (\(atText) and \(previous.text))"
                        : "schedule steps must be in time order: \(atText) comes before \(previous.text)",
                      hint: "give each step its own time, earliest first")
                continue
            }
            var step = Schedule.Step(at: at, atText: atText, location: item.location)
            let serving = ["serve", "variant", "rollout"].filter { fields[$0] != nil }
            if serving.count > 1 {
                error(fields[serving[1]]!, "a schedule step serves one of `serve`, `variant` or `rollout`, "
                      + "and this one has both `\(serving[0])` and `\(serving[1])`",
                      hint: "split it into two steps, or keep one")
                continue
            }
            if serving.isEmpty && fields["enabled"] == nil {
                // A misspelt field (`serv:`) was reported above, with what it should be: that is the mistake.
                if misspelt { continue }
                error(item, "the schedule step at \(atText) changes nothing",
                      hint: "add `serve:`, `variant:`, `rollout:` or `enabled:`")
                continue
            }
            if definition.kind == .preference, let field = ["variant", "rollout", "enabled"].first(where: { fields[$0] != nil }) {
                error(fields[field]!, "a preference's schedule steps set `serve:` only, not `\(field):`",
                      hint: "write the value the preference takes from then on as `serve:`")
                continue
            }
            if let serveNode = fields["serve"] {
                switch Value.from(serveNode, as: definition.type).flatMap({ value in
                    definition.problem(with: value).map { .failure($0) } ?? .success(definition.type.widening(value))
                }) {
                case .failure(let problem):
                    error(serveNode, "schedule step at \(atText) of \(definition.key): \(problem.message)",
                          hint: problem.hint)
                    continue
                case .success(let value):
                    step.serve = value
                    fallback = .value(value)
                    fallbackLocation = serveNode.location
                }
            }
            if let variantNode = fields["variant"] {
                let name = variantNode.scalar?.text ?? ""
                guard definition.value(ofVariant: name) != nil else {
                    let names = definition.variants.map(\.name)
                    error(variantNode, "'\(name)' is not a variant of \(definition.key)",
                          hint: names.isEmpty ? "\(definition.key) has no variants: use `serve:` with a value"
                            : Suggestions.nearest(to: name, in: names).map(Message.didYouMean(one:))
                                ?? "variants: \(names.joined(separator: ", "))")
                    continue
                }
                step.variant = name
                fallback = .variant(name)
                fallbackLocation = variantNode.location
            }
            if let rolloutNode = fields["rollout"] {
                step.rollout = Value(node: rolloutNode)
                fallback = .rollout(rolloutNode)
                fallbackLocation = nil
            }
            if let enabledNode = fields["enabled"] {
                guard case .bool(let on)? = enabledNode.scalar?.value else {
                    let problem = RuleCompiler.enabledProblem(enabledNode, key: definition.key)
                    error(enabledNode, problem.message, hint: problem.hint)
                    continue
                }
                step.enabled = on
                enabled = enabledNode
            }
            // The definition from this step on: the definition as written, with what the steps so far set.
            var stepDefinition = definition
            if let fallbackLocation { stepDefinition.defaultLocation = fallbackLocation }
            var rollout = pending.rollout
            switch fallback {
            case .written: break
            case .value(let value):
                stepDefinition.defaultValue = value
                stepDefinition.defaultVariant = definition.variant(for: value)
                rollout = nil
            case .variant(let name):
                stepDefinition.defaultVariant = name
                stepDefinition.defaultValue = definition.value(ofVariant: name)!
                rollout = nil
            case .rollout(let node):
                rollout = node
            }
            let stepPending = PendingTargeting(
                rules: pending.rules, rollout: rollout, requires: pending.requires, enabled: enabled,
                targeting: pending.targeting, bucketing: pending.bucketing, location: pending.location)
            let before = diagnostics.count
            stepDefinition.targeting = compile(stepPending, for: stepDefinition)
            // The rules were checked with the definition; only what the step brings can be new (a mistake in the
            // rules themselves, reported with the definition, would otherwise come again for every step).
            if diagnostics.count > before {
                let reported = Set(diagnostics[..<before])
                diagnostics = Array(diagnostics[..<before])
                    + diagnostics[before...].filter { $0.isError && !reported.contains($0) }
            }
            stepDefinition.targeting?.prerequisites = prerequisites
            steps.append(step)
            stepDefinitions.append(stepDefinition)
        }
        guard diagnostics.count == errorsBefore else { return nil }
        let schedule = Schedule(steps: steps)
        let shared = ScheduleBox(schedule: schedule, stepDefinitions: nil)
        for index in stepDefinitions.indices { stepDefinitions[index].scheduleBox = shared }
        return ScheduleBox(schedule: schedule, stepDefinitions: stepDefinitions)
    }
}
