public import YAML

/// A definition's `schedule:`: steps, each taking effect at its time, that change what the flag serves to everyone
/// no rule matches (its default, a variant, or a rollout) and whether it is enabled.
///
/// ```yaml
/// schedule:
///   - at: 2026-12-01T09:00:00Z
///     rollout: [{ value: true, weight: 10 }, { value: false, weight: 90 }]
///   - at: 2026-12-03T09:00:00Z
///     serve: true
/// ```
///
/// Before the first step the definition's own fields apply; a field a step omits carries over from the step
/// before. Steps change the default layer only: file, env and runtime overrides still win, and rules keep their
/// precedence. A board serves the step in force at its clock's time (``BoardOptions/clock``), and publishes a
/// new revision at each step, from one timer set to the next step.
public struct Schedule: Sendable {
    /// One step, as written.
    public struct Step: Sendable {
        /// When it takes effect, in seconds since the Unix epoch.
        public var at: Double
        /// The time as written (`2026-12-01T09:00:00Z`).
        public var atText: String
        /// `serve:`: the value served to everyone no rule matches.
        public var serve: Value?
        /// `variant:`: the variant served to everyone no rule matches.
        public var variant: String?
        /// `rollout:` as written: a list of `{ value | variant, weight }`.
        public var rollout: Value?
        /// `enabled:`.
        public var enabled: Bool?
        /// Where the step is written.
        public var location: SourceLocation

        /// The step's fields as JSON members: `at`, and those it sets.
        package var jsonFields: [String: Value] {
            var fields: [String: Value] = ["at": .string(atText)]
            if let serve { fields["serve"] = serve }
            if let variant { fields["variant"] = .string(variant) }
            if let rollout { fields["rollout"] = rollout }
            if let enabled { fields["enabled"] = .bool(enabled) }
            return fields
        }

        /// What the step changes, in words: `serve true`, `variant grid, enabled false`, `rollout 10% true / 90% false`.
        package var summary: String {
            var parts: [String] = []
            if let serve { parts.append("serve \(serve)") }
            if let variant { parts.append("variant \(variant)") }
            if case .list(let items)? = rollout {
                let weights = items.compactMap { item -> (String, Double)? in
                    guard case .object(let fields) = item, let weight = fields["weight"]?.doubleValue else { return nil }
                    let what = fields["variant"]?.stringValue ?? fields["value"].map { "\($0)" } ?? "?"
                    return (what, weight)
                }
                let total = weights.reduce(0) { $0 + $1.1 }
                parts.append("rollout " + weights.map { what, weight in
                    let share = total > 0 ? weight / total * 100 : 0
                    return (share == share.rounded() ? String(Int(share)) : String(format1(share))) + "% " + what
                }.joined(separator: " / "))
            }
            if let enabled { parts.append(enabled ? "enabled" : "disabled") }
            return parts.joined(separator: ", ")
        }

        private func format1(_ number: Double) -> String {
            let tenths = (number * 10).rounded() / 10
            return String(tenths)
        }
    }

    /// The steps, in time order.
    public var steps: [Step]

    /// The position of the step in force at `now` (the last whose time has come), or `nil` before the first.
    public func stepIndex(at now: Double) -> Int? {
        steps.lastIndex { $0.at <= now }
    }

    /// The first step still to come after `now`.
    public func nextStep(after now: Double) -> Step? {
        steps.first { $0.at > now }
    }
}

/// A definition's schedule and, on the definition as written, the definition in force from each step on.
final class ScheduleBox: Sendable {
    let schedule: Schedule
    /// The definition from each step on (same order as the steps); `nil` on the step definitions themselves.
    let stepDefinitions: [Definition]?

    init(schedule: Schedule, stepDefinitions: [Definition]?) {
        self.schedule = schedule
        self.stepDefinitions = stepDefinitions
    }
}

extension Definition {
    /// The schedule, when the definition has one.
    public var schedule: Schedule? { scheduleBox?.schedule }

    /// The definition as it is in force at `now` (seconds since the epoch): the step in force applied, or the
    /// definition as written before its first step. A definition in force carries the schedule, for `explain`.
    public func inForce(at now: Double) -> Definition {
        guard let box = scheduleBox, let steps = box.stepDefinitions,
              let index = box.schedule.stepIndex(at: now)
        else { return self }
        return steps[index]
    }
}

extension Registry {
    /// The registry with each scheduled definition as it is in force at `now`; the registry itself when none is
    /// scheduled. Call it on the registry as loaded (its definitions as written).
    public func inForce(at now: Double) -> Registry {
        guard !scheduled.isEmpty else { return self }
        var definitions = self.definitions
        for position in scheduled { definitions[position] = definitions[position].inForce(at: now) }
        return Registry(definitions: definitions, files: files)
    }

    /// The time of the next schedule step of any definition after `now`, if one is to come.
    public func nextScheduleStep(after now: Double) -> Double? {
        scheduled.compactMap { definitions[$0].schedule?.nextStep(after: now)?.at }.min()
    }
}
