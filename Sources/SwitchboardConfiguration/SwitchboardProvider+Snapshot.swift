import Configuration
import Switchboard

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension SwitchboardProvider {
    /// What ``SwitchboardProvider/snapshot()`` returns: one board snapshot read through the provider's mapping, so
    /// every read of it answers from the same publication.
    struct Snapshot: ConfigSnapshot {
        static let providerName = "SwitchboardProvider"
        /// The board's snapshot.
        let values: any ValueSnapshot
        /// The provider's context.
        let context: EvaluationContext

        var providerName: String { Self.providerName }

        /// What a key holds in this snapshot, before it is mapped to a requested type: what a watcher compares.
        struct Reading: Equatable, Sendable {
            var value: Value?
            var declaredType: ValueType?
        }

        /// The value of a key for the provider's context with the key's context on top, and its declared type.
        func reading(forKey key: AbsoluteConfigKey) -> Reading {
            let name = key.switchboardKey
            let context = key.context.isEmpty ? context : context.adding(key.context)
            guard let value = values.value(forKey: name, context: context) else { return Reading() }
            return Reading(value: value, declaredType: values.declaredType(ofKey: name))
        }

        func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
            let name = key.switchboardKey
            let reading = reading(forKey: key)
            guard let value = reading.value else { return LookupResult(encodedKey: name, value: nil) }
            guard let content = ConfigContent(value, declaredType: reading.declaredType, as: type) else {
                throw TypeMismatch(key: name, value: value, requestedType: type)
            }
            return LookupResult(encodedKey: name, value: ConfigValue(content, isSecret: false))
        }
    }
}
