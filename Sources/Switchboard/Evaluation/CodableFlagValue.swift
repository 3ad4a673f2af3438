/// A `Codable` Swift type as the value of an `object` definition (or a `list` one: set ``FlagValue/valueType``), decoded
/// straight from Switchboard's value model with ``ValueDecoder`` and written with ``ValueEncoder``.
///
/// ```swift
/// struct Support: CodableFlagValue {
///     var email: String
///     var hours: [Int]
///     var chat: Chat?                       // optional fields may be absent
///     struct Chat: Codable, Sendable { var enabled: Bool }
/// }
/// let support = board.value(FlagKey("app.support", default: Support(email: "help@example.com", hours: [9, 17])))
/// try board.set("app.support", to: Support(email: "ops@example.com", hours: [0, 24]), actor: "alice")
/// ```
///
/// A stored or served value that does not decode gives the caller's default; its ``Details`` say `ERROR`,
/// `TYPE_MISMATCH` and name the field (`support.email: expected a string, found an int`). Each lookup decodes
/// the value anew (nothing is cached per snapshot), so a Codable lookup costs a decode; keep hot-path flags
/// scalar.
public protocol CodableFlagValue: FlagValue, Codable {}

extension CodableFlagValue {
    /// `object`; a type whose values are lists declares `static var valueType: ValueType { .list }`.
    public static var valueType: ValueType { .object }

    /// Decodes the value; `nil` when it does not fit (``mismatch(in:)`` says where).
    public init?(flagValue: Value) {
        guard let decoded = try? ValueDecoder().decode(Self.self, from: flagValue) else { return nil }
        self = decoded
    }

    /// The value encoded; `null` when the type cannot be encoded (a non-finite double), which every definition
    /// refuses.
    public var flagValue: Value {
        (try? ValueEncoder().encode(self)) ?? .null
    }

    /// Where the value does not decode.
    public static func mismatch(in value: Value) -> ValueDecodingError? {
        do {
            _ = try ValueDecoder().decode(Self.self, from: value)
            return nil
        } catch {
            return error
        }
    }
}

extension FlagValue {
    /// Why `value` is not one of these, field by field; `nil` for types that only tell whether it fits.
    public static func mismatch(in value: Value) -> ValueDecodingError? { nil }
}
