/// A flag or preference value: one of the six definition types, plus `null` inside lists and objects.
///
/// A closed model instead of `Any`: every value Switchboard reads, stores or serves is one of these.
public enum Value: Sendable, Hashable {
    /// JSON's `null`; appears inside lists and objects and in evaluation contexts, never as a definition's value.
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit integer.
    case int(Int)
    /// A double.
    case double(Double)
    /// A string.
    case string(String)
    /// A list of values.
    case list([Value])
    /// An object with string keys.
    case object([String: Value])

    /// The value's type, or `nil` for `null`.
    public var type: ValueType? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .list: .list
        case .object: .object
        }
    }

    /// The boolean, when the value is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, when the value is one.
    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a double, when the value is an integer or a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The list, when the value is one.
    public var listValue: [Value]? {
        if case .list(let value) = self { return value }
        return nil
    }

    /// The object, when the value is one.
    public var objectValue: [String: Value]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// The six types a definition can declare.
public enum ValueType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `true` or `false`.
    case bool
    /// A 64-bit integer.
    case int
    /// A double; integers are accepted and widened.
    case double
    /// A string.
    case string
    /// A list of JSON-like values.
    case list
    /// An object of JSON-like values.
    case object

    /// The type's name as written in YAML.
    public var description: String { rawValue }
}

extension Value {
    /// Whether more than `limit` lists and objects nest one in another; `limit` 0 asks whether it is one at all.
    /// Stops at the limit, so a hostile value costs no more than the limit's depth.
    func nests(deeperThan limit: Int) -> Bool {
        switch self {
        case .list(let items): limit == 0 || items.contains { $0.nests(deeperThan: limit - 1) }
        case .object(let fields): limit == 0 || fields.values.contains { $0.nests(deeperThan: limit - 1) }
        default: false
        }
    }
}

extension Value: CustomStringConvertible {
    /// The value as compact JSON: `true`, `25`, `1.5`, `"dark"`, `[1,2]`, `{"a":1}`.
    public var description: String { json }
}

extension Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `true` / `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A list literal.
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    /// An object literal.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
