import YAML

extension Definition {
    /// Whether a value fits this definition, and the value as it is stored and served: an int widened to a double
    /// for a `double` definition, then checked for its type, a finite number and the constraints. The one test
    /// every write (`set(_:to:actor:expiresAt:expectedVersion:)`, the admin API, the REPL, the console) and every
    /// override layer applies.
    public func fit(_ value: Value) -> Result<Value, ValueProblem> {
        let value = type.widening(value)
        if let problem = problem(with: value) { return .failure(problem) }
        return .success(value)
    }

    /// Whether text typed by someone (a command line, the REPL, the console, a `SWITCHBOARD_…` variable) fits this
    /// definition: a variant's name for a variant flag (``variantValue(named:)``), or text parsed by the type
    /// (``Value/parse(_:as:)``), then ``fit(_:)``.
    public func fit(text: String) -> Result<Value, ValueProblem> {
        if let value = variantValue(named: text) { return fit(value) }
        return Value.parse(text, as: type).flatMap(fit)
    }

    /// The value of the variant `text` names, as every override reads a name (`set`, the REPL, the console, the
    /// environment and override files, as a definition's `default` does); `nil` when no variant has that name, or
    /// when `text`, read as the definition's type, is itself a variant's value: then it means that value.
    public func variantValue(named text: String) -> Value? {
        guard let value = value(ofVariant: text) else { return nil }
        if case .success(let parsed) = Value.parse(text, as: type), variant(for: type.widening(parsed)) != nil {
            return nil
        }
        return value
    }

    /// Checks that a value has this definition's type and meets its constraints (`values`, variants, `min`,
    /// `max`, `pattern`). Returns `nil` when it fits.
    public func problem(with value: Value) -> ValueProblem? {
        if let problem = Definition.typeProblem(value, expected: type) { return problem }
        if let problem = Definition.nestingProblem(value) { return problem }
        if let (number, path) = Definition.nonFinite(in: value) {
            let place = path.isEmpty ? "" : " (at \(path))"
            return ValueProblem("\(number)\(place) cannot be a value: JSON, the store's and the server's format, has "
                                    + "no infinity or NaN",
                                hint: number.isNaN ? "write a number" : "use a large finite number instead")
        }
        return constraintProblem(with: value)
    }

    /// The first infinity or NaN in a value, lists and objects included (in key order), with where it is
    /// (`retry_after`, `[2]`, `limits.max[0]`; empty for the value itself): JSON would write it as `null`.
    static func nonFinite(in value: Value, at path: String = "") -> (Double, String)? {
        switch value {
        case .double(let number) where !number.isFinite:
            return (number, path)
        case .list(let items):
            for (index, item) in items.enumerated() {
                if let found = nonFinite(in: item, at: path + "[\(index)]") { return found }
            }
        case .object(let fields):
            for key in fields.keys.sorted() {
                if let found = nonFinite(in: fields[key]!, at: path.isEmpty ? key : path + "." + key) { return found }
            }
        default:
            break
        }
        return nil
    }

    /// Checks `values`, variants, `min`, `max` and `pattern`, assuming the type is right.
    func constraintProblem(with value: Value, checkingVariants: Bool = true) -> ValueProblem? {
        if checkingVariants, !variants.isEmpty, variant(for: value) == nil {
            let list = variants.map { "\($0.name) (\($0.value))" }.joined(separator: ", ")
            return ValueProblem("\(value) is not the value of any variant of \(key)", hint: "variants: \(list)")
        }
        if let allowedValues, !allowedValues.contains(where: { Definition.sameValue($0, value) }) {
            let list = allowedValues.map(\.plainText).joined(separator: ", ")
            return ValueProblem("\(value.plainText) is not an allowed value of \(key)", hint: "allowed values: \(list)")
        }
        if let number = value.doubleValue {
            if let minimum, number < minimum {
                return ValueProblem("\(value) is below the minimum \(Definition.format(minimum)) of \(key)",
                                    hint: rangeHint)
            }
            if let maximum, number > maximum {
                return ValueProblem("\(value) is above the maximum \(Definition.format(maximum)) of \(key)",
                                    hint: rangeHint)
            }
        }
        if let pattern, case .string(let string) = value, !Definition.matches(string, pattern: pattern) {
            return ValueProblem("\"\(string)\" does not match the pattern of \(key)", hint: "pattern: \(pattern)")
        }
        return nil
    }

    /// `allowed range: 1 to 500`, or `at least 1` / `at most 500` for a range open at one end.
    private var rangeHint: String {
        switch (minimum.map(Definition.format), maximum.map(Definition.format)) {
        case (let low?, let high?): "allowed range: \(low) to \(high)"
        case (let low?, nil): "at least \(low)"
        case (nil, let high?): "at most \(high)"
        case (nil, nil): ""
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// Whether a string matches a pattern as a whole. An invalid pattern matches nothing (the loader reports it).
    static func matches(_ string: String, pattern: String) -> Bool {
        RegularExpression(pattern)?.matchesWhole(string) ?? false
    }

    /// Equality that treats an int and a double of the same number as equal (values lists of doubles).
    static func sameValue(_ a: Value, _ b: Value) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// Checks only the nesting. A value nests as deep as text typed after `switchboard set` may (the YAML parser's
    /// limit, 64 lists and objects in one another), so that every writer, a device's local overrides included,
    /// takes the same values, and a store's export holds only what its import reads back.
    public static func nestingProblem(_ value: Value) -> ValueProblem? {
        let deepest = YAMLParser.Limits().maxDepth
        guard value.nests(deeperThan: deepest) else { return nil }
        return ValueProblem("nesting deeper than \(deepest) levels",
                            hint: "a value nests at most \(deepest) lists and objects in one another")
    }

    /// Checks only the type: a double definition accepts integers.
    public static func typeProblem(_ value: Value, expected: ValueType) -> ValueProblem? {
        switch (expected, value) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.double, .int), (.string, .string),
             (.list, .list), (.object, .object):
            return nil
        case (.bool, .string(let text)) where Definition.yamlOneOneBooleans.contains(text.lowercased()):
            let truth = ["yes", "y", "on"].contains(text.lowercased())
            return ValueProblem("expected a bool, found the string \"\(text)\"",
                                hint: "write \(truth) (only true and false are booleans in YAML 1.2)")
        case (.int, .double(let number)) where number == number.rounded() && (number >= 0x1p63 || number < -0x1p63):
            // Past a double's range too (`1e400`), the number has no digits to show: JSON would write it `null`.
            let found = number.isFinite ? "\(Value.double(number)), outside the range of an int"
                : "a number past the range of any number type"
            return ValueProblem("expected an int, found \(found)", hint: "an int is from \(Int.min) to \(Int.max)")
        case (.int, .double(let number)) where number == number.rounded():
            return ValueProblem("expected an int, found the double \(Value.double(number))",
                                hint: "an int is a whole number written without a point or exponent: "
                                    + "\(Int(number))")
        case (.bool, .string(let text)), (.int, .string(let text)), (.double, .string(let text)):
            // Named when short: `found the string "five"`. Quoted in YAML or JSON, or tagged `!!str` in YAML, `"true"`
            // or `"5"` is text; the hint names both, since the value no longer says how it was written.
            let found = text.count <= 40 ? "the string \(Message.quoted(text))" : "a string"
            let unquoted = expected.widening(Value(plainText: text))
            return ValueProblem("expected \(expected.withArticle), found \(found)",
                                hint: unquoted.type == expected ? Self.writePlainHint : nil)
        default:
            return ValueProblem("expected \(expected.withArticle), found \(value.kindDescription)")
        }
    }

    /// The hint for text that would be the expected type written plain (`"true"`, `!!str 5`).
    static let writePlainHint = "write it plain, without quotes or a !!str tag: as written, it is a string"

    static let yamlOneOneBooleans: Set<String> = ["yes", "no", "y", "n", "on", "off"]
}

extension ValueType {
    /// The value as this type holds it: an int as a double for `double`, anything else as it is. The one place
    /// integers widen (YAML and JSON write `2` for the double 2.0).
    public func widening(_ value: Value) -> Value {
        if self == .double, case .int(let int) = value { return .double(Double(int)) }
        return value
    }

    /// "a bool", "an int", ...
    public var withArticle: String {
        self == .int || self == .object ? "an \(rawValue)" : "a \(rawValue)"
    }
}

extension Value {
    /// "null", "a bool", "an int", "a double", "a string", "a list", "an object".
    public var kindDescription: String {
        type?.withArticle ?? "null"
    }

    /// The value for people: strings without quotes, everything else as JSON.
    public var plainText: String {
        if case .string(let string) = self { return string }
        return json
    }
}
