import Configuration
import Switchboard

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigContent {
    /// A Switchboard value as the content of `type`, or `nil` when the value is not of that type.
    ///
    /// Scalars map to the same type only: an `int` is not a double, as in swift-configuration's own providers, but
    /// the value of a `double` definition is a double even when it is whole (`declaredType`). A list maps to the
    /// array type all its elements have; ints count as doubles there, since a list declares no element type and
    /// YAML writes `[1, 2.5]`. Objects, nulls and bytes have no mapping.
    init?(_ value: Value, declaredType: ValueType?, as type: ConfigType) {
        switch (value, type) {
        case (.bool(let bool), .bool): self = .bool(bool)
        case (.int(let int), .int) where declaredType != .double: self = .int(int)
        case (.int(let int), .double) where declaredType == .double: self = .double(Double(int))
        case (.double(let double), .double): self = .double(double)
        case (.string(let string), .string): self = .string(string)
        case (.list(let items), .boolArray):
            guard let bools = Self.all(items, \.boolValue) else { return nil }
            self = .boolArray(bools)
        case (.list(let items), .intArray):
            guard let ints = Self.all(items, \.intValue) else { return nil }
            self = .intArray(ints)
        case (.list(let items), .doubleArray):
            guard let doubles = Self.all(items, \.doubleValue) else { return nil }
            self = .doubleArray(doubles)
        case (.list(let items), .stringArray):
            guard let strings = Self.all(items, \.stringValue) else { return nil }
            self = .stringArray(strings)
        default: return nil
        }
    }

    /// Every item converted, or `nil` when one does not convert.
    private static func all<T>(_ items: [Value], _ convert: (Value) -> T?) -> [T]? {
        var converted: [T] = []
        converted.reserveCapacity(items.count)
        for item in items {
            guard let value = convert(item) else { return nil }
            converted.append(value)
        }
        return converted
    }
}
