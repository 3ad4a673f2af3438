/// Who a value is evaluated for: a targeting key (usually a user or device id) and attributes.
///
/// Targeting rules read the attributes; rollouts bucket by the targeting key. Overrides in the file, env and
/// runtime layers apply whatever the context.
public struct EvaluationContext: Sendable, Hashable {
    /// The stable identifier rollouts bucket by.
    public var targetingKey: String?
    /// Attributes rules can test: strings, numbers, booleans, lists, objects.
    public var attributes: [String: Value]

    /// Creates a context.
    public init(targetingKey: String? = nil, attributes: [String: Value] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// The empty context.
    public static let empty = EvaluationContext()

    /// Whether the context has neither a targeting key nor attributes.
    public var isEmpty: Bool { targetingKey == nil && attributes.isEmpty }

    /// Reads or writes one attribute.
    public subscript(attribute: String) -> Value? {
        get { attributes[attribute] }
        set { attributes[attribute] = newValue }
    }
}
