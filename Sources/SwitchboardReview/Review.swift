import Dispatch
import Foundation
import Locking
package import Switchboard

/// What an edit changes: every key added, removed, renamed or modified between two sides, how many contexts of a
/// population are served another value, and the risks that break something already in use.
///
/// ```swift
/// let base = try ReviewSide.load(.revision("HEAD~1", folder: "flags"), environmentName: nil)
/// let head = try ReviewSide.load(.revision("HEAD", folder: "flags"), environmentName: nil)
/// let population = Review.synthesizedPopulation(base: base, head: head, count: 10_000, seed: 1)
/// let review = Review(base: base, head: head, population: population)
/// ```
package struct Review: Sendable {
    /// What the report calls the base: a revision, `"WORKTREE"`, or a folder.
    package var base: String
    /// What the report calls the head.
    package var head: String
    /// Every key that differs, in key order.
    package var changes: [KeyChange]
    /// The risks that break something already in use, in key order.
    package var breaking: [BreakingRisk]
    /// What was not checked, and why.
    package var notes: [String]

    /// The note for the check `diff` leaves to `switchboard refs`, which reads the code.
    package static let referencesNote = "removed or renamed keys still read by code were not checked: "
        + "`switchboard refs` lists the code that reads each key"

    /// Compares two sides.
    ///
    /// - Parameters:
    ///   - base: the version before the edit.
    ///   - head: the version after it.
    ///   - population: the contexts both versions are evaluated over, for every key whose served value can change.
    ///   - stored: the runtime store's overrides, by store key, checked against the head's definitions.
    ///   - now: the moment the impact is measured at (seconds since the epoch), with each side's schedules as they
    ///     stand then; each later step of either side's schedule of a key is measured too.
    package init(
        base: ReviewSide, head: ReviewSide, population: Population, stored: [String: StoredOverride] = [:],
        at now: Double = Date().timeIntervalSince1970
    ) {
        self.base = base.label
        self.head = head.label
        var changes: [KeyChange] = []
        let baseFiles = base.snapshot.fileLayer, headFiles = head.snapshot.fileLayer
        var renamedAway: Set<String> = []
        // Measured after the comparison, on every core: (position in `changes`, base key, head key).
        var measurements: [(change: Int, base: String, head: String)] = []
        for definition in head.registry.definitions {
            let key = definition.key
            if let old = base.registry[key] {
                let comparison = DefinitionComparison(
                    base: old, head: definition, baseOverride: baseFiles.keys[key]?.accepted?.value,
                    headOverride: headFiles.keys[key]?.accepted?.value)
                guard !comparison.fields.isEmpty else { continue }
                if comparison.changesServedValue { measurements.append((changes.count, key, key)) }
                changes.append(KeyChange(key: key, change: .modified, fields: comparison.fields,
                                         details: comparison.details))
            } else if let oldKey = definition.renamedFrom.first(where: {
                base.registry[$0] != nil && head.registry[$0] == nil
            }),
                      let old = base.registry[oldKey] {
                renamedAway.insert(oldKey)
                let comparison = DefinitionComparison(
                    base: old, head: definition, baseOverride: baseFiles.keys[oldKey]?.accepted?.value,
                    headOverride: headFiles.keys[key]?.accepted?.value)
                // The new name itself is the rename; `renamed_from` gaining the old key is part of it.
                let fields = comparison.fields.filter { $0 != "renamed_from" }
                measurements.append((changes.count, oldKey, key))
                changes.append(KeyChange(key: key, change: .renamed, fields: fields,
                                         details: comparison.details.filter { !$0.hasPrefix("renamed_from:") },
                                         renamedFrom: oldKey))
            } else {
                changes.append(KeyChange(key: key, change: .added))
            }
        }
        for definition in base.registry.definitions
        where head.registry[definition.key] == nil && !renamedAway.contains(definition.key) {
            // Still written, but rejected because a flag it requires is gone: modified, and named as a risk.
            let missing = (definition.targeting?.prerequisites ?? []).map(\.key)
                .filter(head.missingPrerequisites.contains)
            if missing.isEmpty {
                changes.append(KeyChange(key: definition.key, change: .removed))
            } else {
                changes.append(KeyChange(key: definition.key, change: .modified, fields: ["prerequisites"],
                                         details: missing.map { "prerequisites: requires \($0), which is removed" }))
            }
        }
        let impacts = Self.impacts(measurements.map { ($0.base, $0.head) }, base, head, population, now: now)
        for (measurement, timed) in zip(measurements, impacts) {
            changes[measurement.change].impact = timed.first?.impact
            changes[measurement.change].laterImpacts = Array(timed.dropFirst())
        }
        changes.sort { $0.key < $1.key }
        self.changes = changes
        breaking = Risks.find(base: base, head: head, changes: changes, stored: stored)
        notes = changes.contains { $0.change == .removed || $0.change == .renamed } ? [Self.referencesNote] : []
    }

    /// The impact of each key (base key, head key) on its served value, measured on every core (snapshots are read
    /// without locks): at `now`, then from each later step of either side's schedule of the key whose impact
    /// differs from the one before; empty when the population is empty.
    private static func impacts(
        _ keys: [(base: String, head: String)], _ base: ReviewSide, _ head: ReviewSide, _ population: Population,
        now: Double
    ) -> [[TimedImpact]] {
        guard !population.contexts.isEmpty else { return Array(repeating: [], count: keys.count) }
        // The moments each key is measured at, and each side's snapshot at every one of them, made once.
        let moments: [[Double]] = keys.map { pair in
            let steps = [base.registry[pair.base], head.registry[pair.head]]
                .flatMap { $0?.schedule?.steps.map(\.at) ?? [] }
            return [now] + Set(steps.filter { $0 > now }).sorted()
        }
        var made: [Double: (base: Snapshot, head: Snapshot)] = [:]
        for time in Set(moments.joined()) { made[time] = (base.snapshot(at: time), head.snapshot(at: time)) }
        let snapshots = made
        let results = Locked<[[TimedImpact]]>(Array(repeating: [], count: keys.count))
        let workers = min(keys.count, ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var measured: [(Int, [TimedImpact])] = []
            for index in stride(from: worker, to: keys.count, by: workers) {
                guard let old = base.registry.position(of: keys[index].base),
                      let new = head.registry.position(of: keys[index].head)
                else { continue }
                var timed: [TimedImpact] = []
                for time in moments[index] {
                    let pair = snapshots[time]!
                    let impact = Impact.measure(base: (pair.base, old), head: (pair.head, new),
                                                population: population.contexts)
                    if timed.last?.impact != impact { timed.append(TimedImpact(at: time, impact: impact)) }
                }
                measured.append((index, timed))
            }
            results.withLock { for (index, timed) in measured { $0[index] = timed } }
        }
        return results.withLock { $0 }
    }

    /// Whether the review found a breaking risk (what `--fail-on breaking` fails on).
    package var isBreaking: Bool { !breaking.isEmpty }

    /// The population a review evaluates when none is given: `count` contexts drawn with `seed`, testing the
    /// attributes the rules of either side test.
    package static func synthesizedPopulation(
        base: ReviewSide, head: ReviewSide, count: Int, seed: UInt64
    ) -> Population {
        var attributes = Population.testedAttributes(of: base.registry.definitions)
        for (name, values) in Population.testedAttributes(of: head.registry.definitions) {
            var known = attributes[name] ?? []
            for value in values where !known.contains(value) { known.append(value) }
            attributes[name] = known
        }
        return Population(synthesizing: count, seed: seed, attributes: attributes)
    }
}
