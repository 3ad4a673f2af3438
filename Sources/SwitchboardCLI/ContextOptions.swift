import ArgumentParser
import Switchboard
import YAML

/// `--context k=v` and `--targeting-key`: who a value is evaluated for.
struct ContextOptions: ParsableArguments {
    @Option(name: .customLong("context"), help: ArgumentHelp(
        "An attribute of the evaluation context, as key=value; the value is typed like a YAML scalar "
            + "(true, 42, 1.5, text). Repeatable.", valueName: "key=value"))
    var attributes: [String] = []

    @Option(name: .customLong("targeting-key"), help: ArgumentHelp(
        "The targeting key rollouts bucket by (usually a user id).", valueName: "id"))
    var targetingKey: String?

    func validate() throws {
        for attribute in attributes where !attribute.contains("=") {
            throw ValidationError("--context takes key=value, not '\(attribute)'")
        }
    }

    /// The context from the options.
    var context: EvaluationContext {
        EvaluationContext.parse(attributes, targetingKey: targetingKey)
    }
}

extension EvaluationContext {
    /// A context from `key=value` items; values are typed as YAML scalars, and `targetingKey=...` sets the key.
    static func parse(_ items: [String], targetingKey: String? = nil) -> EvaluationContext {
        var context = EvaluationContext(targetingKey: targetingKey)
        for item in items {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let key = String(item[..<equals])
            let text = String(item[item.index(after: equals)...])
            if key == "targetingKey" {
                context.targetingKey = text
                continue
            }
            let scalar = Scalar(text: text, style: .plain)
            context.attributes[key] = Value(node: Node(.scalar(scalar), location: .init(file: "", line: 1, column: 1)))
        }
        return context
    }
}
