/// Why a value does not fit a definition.
public struct ValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong: "expected an int, found a string".
    public var message: String
    /// How to fix it: "allowed values: newest_first, oldest_first".
    public var hint: String?

    /// Creates a problem.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message, with the hint after a semicolon.
    public var description: String {
        hint.map { "\(message); \($0)" } ?? message
    }
}

extension Definition {
    /// Checks that a value has this definition's type and meets its constraints (`values`, variants, `min`,
    /// `max`, `pattern`). Returns `nil` when it fits.
    public func problem(with value: Value) -> ValueProblem? {
        if let problem = Definition.typeProblem(value, expected: type) { return problem }
        if case .double(let number) = value, !number.isFinite {
            return ValueProblem("\(number) cannot be a value: JSON, the store's and the server's format, has no infinity or NaN",
                                hint: "use a large finite number instead")
        }
        return constraintProblem(with: value)
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

    private var rangeHint: String {
        "allowed range: \(minimum.map(Definition.format) ?? "…") to \(maximum.map(Definition.format) ?? "…")"
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
        case (.int, .double(let number)) where number == number.rounded():
            return ValueProblem("expected an int, found the double \(Value.double(number))",
                                hint: "write it without a decimal point")
        default:
            return ValueProblem("expected \(expected.withArticle), found \(value.kindDescription)")
        }
    }

    static let yamlOneOneBooleans: Set<String> = ["yes", "no", "y", "n", "on", "off"]
}

extension ValueType {
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
