/// Encodes `Encodable` Swift types straight to a ``Value``: structs become objects, arrays lists, and scalars
/// their values; `nil` optionals are left out. The opposite of ``ValueDecoder``.
///
/// ```swift
/// let value = try ValueEncoder().encode(Support(email: "help@example.com", hours: [9, 17]))
/// // ["email": "help@example.com", "hours": [9, 17]]
/// ```
public struct ValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes a value.
    ///
    /// - Throws: `EncodingError` when the type encodes nothing, or a non-finite double.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        if let value = value as? Value { return value }
        let root = Slot()
        try value.encode(to: EncodingState(slot: root, codingPath: []))
        guard let result = root.value else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded nothing"))
        }
        return result
    }
}

/// Where one encoded value goes: objects and lists fill their members' slots, then collect them.
private final class Slot {
    enum Content {
        case value(Value)
        case object([(String, Slot)])
        case list([Slot])
    }

    var content: Content?

    var value: Value? {
        switch content {
        case .value(let value): value
        case .object(let members):
            .object(Dictionary(members.compactMap { key, slot in slot.value.map { (key, $0) } }) { _, last in last })
        case .list(let items): .list(items.map { $0.value ?? .null })
        case nil: nil
        }
    }
}

private struct EncodingState: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([]) }
        return KeyedEncodingContainer(KeyedEncoding(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = slot.content {} else { slot.content = .list([]) }
        return UnkeyedEncoding(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoding(slot: slot, codingPath: codingPath)
    }

    /// Encodes `value` into this state's slot; a ``Value`` goes in as it is.
    func encode<T: Encodable>(_ value: T) throws {
        if let value = value as? Value {
            slot.content = .value(value)
        } else {
            try value.encode(to: self)
        }
    }
}

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> EncodingState {
        let child = Slot()
        if case .object(var members) = slot.content {
            members.append((key.stringValue, child))
            slot.content = .object(members)
        }
        return EncodingState(slot: child, codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).slot.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try child(key).encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { EncodingState(slot: slot, codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    var count: Int {
        if case .list(let items) = slot.content { return items.count }
        return 0
    }

    private func child() -> EncodingState {
        let child = Slot()
        let index = count
        if case .list(var items) = slot.content {
            items.append(child)
            slot.content = .list(items)
        }
        return EncodingState(slot: child, codingPath: codingPath + [IndexKey(index)])
    }

    mutating func encodeNil() throws { child().slot.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try child().encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        child().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        child().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { child() }
}

private struct SingleEncoding: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { slot.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { slot.content = .value(.string(value)) }
    mutating func encode(_ value: Int) throws { slot.content = .value(.int(value)) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }

    mutating func encode(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                                                          debugDescription: "\(value) has no JSON form"))
        }
        slot.content = .value(.double(value))
    }

    private mutating func integer<I: FixedWidthInteger>(_ value: I) throws {
        guard let int = Int(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                                                          debugDescription: "\(value) does not fit an Int"))
        }
        slot.content = .value(.int(int))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try EncodingState(slot: slot, codingPath: codingPath).encode(value)
    }
}
