/// A Swift type a flag value can be read as: `Bool`, `Int`, `Double`, `String`, `[Value]`, `[String: Value]`,
/// and `String`-backed enums (for preferences with `values`).
public protocol FlagValue: Sendable {
    /// The definition type values of this Swift type have.
    static var valueType: ValueType { get }
    /// Converts from a value; `nil` when the value does not fit.
    init?(flagValue: Value)
    /// Converts to a value.
    var flagValue: Value { get }
    /// Why a value does not fit this type, naming the failing field (``CodableFlagValue``); `nil` when the type
    /// has nothing to add to "it does not fit".
    static func mismatch(in value: Value) -> ValueDecodingError?
}

extension Bool: FlagValue {
    /// `bool`.
    public static var valueType: ValueType { .bool }
    /// From `.bool`.
    @inlinable public init?(flagValue: Value) {
        guard case .bool(let value) = flagValue else { return nil }
        self = value
    }
    /// `.bool(self)`.
    public var flagValue: Value { .bool(self) }
}

extension Int: FlagValue {
    /// `int`.
    public static var valueType: ValueType { .int }
    /// From `.int`.
    @inlinable public init?(flagValue: Value) {
        guard case .int(let value) = flagValue else { return nil }
        self = value
    }
    /// `.int(self)`.
    public var flagValue: Value { .int(self) }
}

extension Double: FlagValue {
    /// `double`.
    public static var valueType: ValueType { .double }
    /// From `.double`, or `.int` widened.
    @inlinable public init?(flagValue: Value) {
        switch flagValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        default: return nil
        }
    }
    /// `.double(self)`.
    public var flagValue: Value { .double(self) }
}

extension String: FlagValue {
    /// `string`.
    public static var valueType: ValueType { .string }
    /// From `.string`.
    @inlinable public init?(flagValue: Value) {
        guard case .string(let value) = flagValue else { return nil }
        self = value
    }
    /// `.string(self)`.
    public var flagValue: Value { .string(self) }
}

extension Array: FlagValue where Element == Value {
    /// `list`.
    public static var valueType: ValueType { .list }
    /// From `.list`.
    public init?(flagValue: Value) {
        guard case .list(let value) = flagValue else { return nil }
        self = value
    }
    /// `.list(self)`.
    public var flagValue: Value { .list(self) }
}

extension Dictionary: FlagValue where Key == String, Value == Switchboard.Value {
    /// `object`.
    public static var valueType: ValueType { .object }
    /// From `.object`.
    public init?(flagValue: Switchboard.Value) {
        guard case .object(let value) = flagValue else { return nil }
        self = value
    }
    /// `.object(self)`.
    public var flagValue: Switchboard.Value { .object(self) }
}

extension FlagValue where Self: RawRepresentable, RawValue == String {
    /// `string`.
    public static var valueType: ValueType { .string }
    /// From a `.string` that is one of the enum's raw values.
    public init?(flagValue: Value) {
        guard case .string(let raw) = flagValue else { return nil }
        self.init(rawValue: raw)
    }
    /// `.string(rawValue)`.
    public var flagValue: Value { .string(rawValue) }
}

/// A typed key: the key, the Swift type of its value, and the default used when the lookup fails.
///
/// `switchboard generate` writes one per definition, so a typo in a key is a compile error:
///
/// ```swift
/// let sort = board.value(Prefs.History.sortOrder)   // SortOrder.newestFirst
/// ```
public struct FlagKey<T: FlagValue>: Sendable, Hashable {
    /// The full key.
    public let key: String
    /// The value used when the key is missing or its value does not fit `T`.
    public let defaultValue: T

    /// Creates a typed key.
    public init(_ key: String, default defaultValue: T) {
        self.key = key
        self.defaultValue = defaultValue
    }

    /// Keys are equal when their key strings are.
    public static func == (lhs: FlagKey, rhs: FlagKey) -> Bool { lhs.key == rhs.key }
    /// Hashes the key string.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
