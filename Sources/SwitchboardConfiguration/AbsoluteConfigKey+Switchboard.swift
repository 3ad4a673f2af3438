import Configuration
import Switchboard

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension AbsoluteConfigKey {
    /// The Switchboard key: the components joined with `.`, unchanged otherwise (`["checkout", "new_flow"]` and
    /// `"checkout.new_flow"` are both `checkout.new_flow`).
    var switchboardKey: String {
        components.joined(separator: ".")
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EvaluationContext {
    /// This context with a config key's context on top: each entry an attribute, replacing one of the same name,
    /// and a string `targetingKey` entry the targeting key.
    func adding(_ keyContext: [String: ConfigContextValue]) -> EvaluationContext {
        var context = self
        for (name, value) in keyContext {
            if name == "targetingKey", case .string(let key) = value {
                context.targetingKey = key
                continue
            }
            context.attributes[name] = switch value {
            case .string(let string): .string(string)
            case .int(let int): .int(int)
            case .double(let double): .double(double)
            case .bool(let bool): .bool(bool)
            }
        }
        return context
    }
}
