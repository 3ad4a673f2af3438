import ArgumentParser
import Switchboard
import SwitchboardTerminal

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
        // An `=` first names no attribute (`--context =x`), as the REPL's `context =x` is refused too.
        for attribute in attributes where !attribute.contains("=") || attribute.hasPrefix("=") {
            throw ValidationError("--context takes key=value, not '\(attribute)'")
        }
    }

    /// The context from the options.
    var context: EvaluationContext {
        EvaluationContext.parse(attributes, targetingKey: targetingKey)
    }
}
