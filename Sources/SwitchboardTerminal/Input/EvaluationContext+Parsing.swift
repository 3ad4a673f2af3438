public import Switchboard

extension EvaluationContext {
    /// A context from `key=value` items, as given to `--context` or typed at the REPL's `context` command.
    ///
    /// Values are typed as YAML plain scalars (`true`, `42`, `1.5`, `null`; anything else is text), unless quoted
    /// (`zip="01234"`, `version='2.10'`), which keeps them text; `targetingKey=...` sets the targeting key. Items
    /// without `=` are skipped; callers check for them first.
    public static func parse(_ items: [String], targetingKey: String? = nil) -> EvaluationContext {
        var context = EvaluationContext(targetingKey: targetingKey)
        for item in items {
            guard let equals = item.firstIndex(of: "=") else { continue }
            var text = Substring(item[item.index(after: equals)...])
            var quoted = false
            if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
                text = text.dropFirst().dropLast()
                quoted = true
            }
            context.assign(String(item[..<equals]), text: String(text), quoted: quoted)
        }
        return context
    }

    /// Sets the attribute `name` (or the targeting key, for `targetingKey`) from text; text that was quoted
    /// stays a string, so `plan="42"` is the text 42 rather than a number.
    public mutating func assign(_ name: String, text: String, quoted: Bool = false) {
        if name == "targetingKey" {
            targetingKey = text
            return
        }
        if quoted {
            attributes[name] = .string(text)
            return
        }
        attributes[name] = Value(plainText: text)
    }
}
