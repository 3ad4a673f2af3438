/// Decodes `Decodable` Swift types straight from a ``Value``, with no detour through JSON text: an object's members
/// become the type's fields, a list its elements, numbers and strings its scalars.
///
/// A value that does not decode throws ``ValueDecodingError``, which names the failing field's path
/// (`support.email: expected a string, found an int`).
///
/// ```swift
/// struct Support: Codable { var email: String; var hours: [Int] }
/// let support = try ValueDecoder().decode(Support.self, from: ["email": "help@example.com", "hours": [9, 17]])
/// ```
public struct ValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a value of `type` from `value`.
    ///
    /// - Throws: ``ValueDecodingError`` naming the path of the first field that does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws(ValueDecodingError) -> T {
        do {
            return try DecodingState(value: value, codingPath: []).decode(T.self)
        } catch let error as ValueDecodingError {
            throw error
        } catch let error as DecodingError {
            throw ValueDecodingError(error)
        } catch {
            throw ValueDecodingError(path: [], message: "\(error)")
        }
    }
}

/// A value that does not decode as the type asked for: where, and what was expected.
public struct ValueDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path from the top of the value to the field that failed: object member names and list indices.
    public var path: [String]
    /// What was wrong there: "expected a string, found an int".
    public var message: String

    /// Creates an error.
    public init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    /// The error a type's own `init(from:)` threw (an enum's unknown raw value, say), with its path.
    init(_ error: DecodingError) {
        let context: DecodingError.Context? = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context): context
        @unknown default: nil
        }
        self.init(path: context?.codingPath.map(\.pathComponent) ?? [],
                  message: context?.debugDescription ?? "\(error)")
    }

    /// The path as text, with `root` in front: `support.email`, `support.hours[1]`.
    public func pathText(root: String) -> String {
        path.reduce(root) { text, component in
            component.first == "[" ? text + component : (text.isEmpty ? component : text + "." + component)
        }
    }

    /// The message with its path, rooted at the top of the value: `email: expected a string, found an int`.
    public var description: String {
        path.isEmpty ? message : "\(pathText(root: "")): \(message)"
    }
}

/// One position in the value being decoded.
private struct DecodingState: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func failure(_ expected: String, at path: [any CodingKey]? = nil, found: Value? = nil) -> ValueDecodingError {
        let found = found ?? value
        return ValueDecodingError(path: (path ?? codingPath).map(\.pathComponent),
                                  message: "expected \(expected), found \(found.kindDescription)")
    }

    /// Decodes a `T` here; a field of type ``Value`` takes the value as it is.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = value as? T { return value }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw failure("an object") }
        return KeyedDecodingContainer(KeyedState(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let items) = value else { throw failure("a list") }
        return UnkeyedState(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleState(state: self)
    }
}

private struct KeyedState<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: Value]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func state(_ key: Key) throws -> DecodingState {
        guard let value = members[key.stringValue] else {
            throw ValueDecodingError(path: (codingPath + [key]).map(\.pathComponent),
                                     message: "missing; the value has no member \"\(key.stringValue)\"")
        }
        return DecodingState(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = members[key.stringValue] else { return true }
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state(key).decode(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try DecodingState(value: value, codingPath: codingPath + [key]).decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try state(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try state(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        DecodingState(value: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try state(key)
    }
}

private struct UnkeyedState: UnkeyedDecodingContainer {
    let items: [Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [Value], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> DecodingState {
        let key = IndexKey(currentIndex)
        guard !isAtEnd else {
            throw ValueDecodingError(path: (codingPath + [key]).map(\.pathComponent),
                                     message: "missing; the list has only \(items.count) elements")
        }
        defer { currentIndex += 1 }
        return DecodingState(value: items[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next()
    }
}

private struct SingleState: SingleValueDecodingContainer {
    let state: DecodingState
    var codingPath: [any CodingKey] { state.codingPath }

    func decodeNil() -> Bool { state.value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = state.value else { throw state.failure("a bool") }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let value) = state.value else { throw state.failure("a string") }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let value = state.value.doubleValue else { throw state.failure("a number") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float {
        Float(try decode(Double.self))
    }

    func decode(_ type: Int.Type) throws -> Int {
        guard case .int(let value) = state.value else { throw state.failure("an int") }
        return value
    }

    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private func integer<I: FixedWidthInteger>() throws -> I {
        let value = try decode(Int.self)
        guard let exact = I(exactly: value) else {
            throw ValueDecodingError(path: codingPath.map(\.pathComponent),
                                     message: "\(value) is out of range for \(I.self)")
        }
        return exact
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decode(T.self)
    }
}

/// A list position as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

extension CodingKey {
    /// How a path shows this key: a member's name, or `[index]` for a list position.
    var pathComponent: String {
        intValue.map { "[\($0)]" } ?? stringValue
    }
}
