import Foundation
import LineEditor
public import Switchboard

extension Explanation {
    /// The explanation as text: a header, one line per layer (highest first), what the targeting did for the
    /// context and what it is (rules, rollouts, prerequisites, as the web console's flag page shows them), the
    /// schedule, and the verdict.
    public func rendered(terminal: Terminal) -> String {
        var out = terminal.bold(key) + " (\(definition.kind.rawValue), \(definition.type.rawValue))"
        if definition.description != nil { out += " — " + definition.descriptionLine }
        out += "\n"
        // The value column as wide as its widest value (`shortText` cuts at 30 cells), so none is cut here.
        let values = steps.map { $0.value.map(\.shortText) ?? "—" }
        let valueWidth = max(14, values.map(DisplayWidth.of).max() ?? 0)
        for (step, value) in zip(steps, values) {
            let layer = step.layer.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let value = DisplayWidth.padded(value, to: valueWidth)
            var origin = step.origin ?? ""
            if step.layer == .env && step.value == nil { origin = "\(environmentVariable) not set" }
            if step.layer == .file && step.value == nil { origin = "no override file sets it" }
            if step.layer == .runtime && step.value == nil && step.origin == nil { origin = "no runtime override" }
            let status: String = switch step.status {
            case .winner: terminal.green("← wins")
            case .shadowed: terminal.dim("(shadowed)")
            case .rejected(let why): terminal.yellow("(skipped: \(why))")
            case .absent: ""
            }
            var line = "  \(layer) \(value) \(origin)"
            if !status.isEmpty { line += "  \(status)" }
            // An empty origin leaves the padding of the value behind.
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        if let targeting { out += "  targeting: \(targeting)\n" }
        if let description = TargetingDescription(definition) { out += description.rendered(terminal: terminal) }
        out += renderedTimeline(terminal: terminal)
        if resolution.isDisabled {
            return out + "value: none (\(Message.disabled.text))\n"
        }
        let winner = resolution.layer?.rawValue ?? "none"
        out += "value: \(resolution.value?.lineText ?? "—") from the \(winner) layer"
        if let variant = resolution.variant { out += " (variant \(variant))" }
        out += "\n"
        return out
    }

    /// The schedule's steps, past ones ticked and the next marked, then what the next step serves.
    func renderedTimeline(terminal: Terminal) -> String {
        let timeline = self.timeline
        guard !timeline.isEmpty else { return "" }
        let next = nextStep
        var out = "  schedule:\n"
        for (step, isPast) in timeline {
            let mark = isPast ? "✓" : step.at == next?.at ? "→" : " "
            let line = "    \(mark) \(Timestamp.display(step.at))  \(step.summary)"
            out += (isPast ? terminal.dim(line) : line) + (step.at == next?.at ? terminal.dim("  (next)") : "") + "\n"
        }
        if let next {
            let serves = next.serve?.lineText ?? next.variant.flatMap { name in
                definition.value(ofVariant: name).map { "\($0.lineText) (variant \(name))" }
            } ?? next.summary
            out += "  next step: \(Timestamp.display(next.at)) → \(serves)\n"
        }
        return out
    }
}
