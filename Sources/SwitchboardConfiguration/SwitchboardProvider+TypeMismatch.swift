public import Configuration
public import Switchboard

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension SwitchboardProvider {
    /// The error of a read whose value is not of the requested type, or has no swift-configuration type at all
    /// (an `object`, bytes). `ConfigReader` treats it as it treats its own providers' conversion errors: a
    /// read with a default returns the default, a `required…` read throws it.
    public struct TypeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
        /// The Switchboard key.
        public var key: String
        /// The value the key holds.
        public var value: Value
        /// The type the reader asked for.
        public var requestedType: ConfigType

        /// Creates the error.
        public init(key: String, value: Value, requestedType: ConfigType) {
            self.key = key
            self.value = value
            self.requestedType = requestedType
        }

        /// What was asked and what the key holds, without the value itself (the reader may treat it as secret):
        /// `Config value for key 'app.upload.max_mb' failed to convert to type bool: it is an int.`
        public var description: String {
            "Config value for key '\(key)' failed to convert to type \(requestedType.rawValue): it is \(found)."
        }

        /// What the value is, in the description's words.
        private var found: String {
            switch value {
            case .null: "null"
            case .bool: "a bool"
            case .int: "an int"
            case .double: "a double"
            case .string: "a string"
            case .list:
                requestedType.isArray
                    ? "a list whose elements are not all \(requestedType.elementName)"
                    : "a list"
            case .object: "an object, which has no swift-configuration type"
            }
        }
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigType {
    /// Whether the type is one of the array types a list can map to.
    fileprivate var isArray: Bool {
        [.boolArray, .intArray, .doubleArray, .stringArray].contains(self)
    }

    /// The elements of an array type, in words: `bools`, `ints`, `doubles`, `strings`.
    fileprivate var elementName: String {
        switch self {
        case .boolArray: "bools"
        case .intArray: "ints"
        case .doubleArray: "doubles or ints"
        case .stringArray: "strings"
        default: rawValue
        }
    }
}
