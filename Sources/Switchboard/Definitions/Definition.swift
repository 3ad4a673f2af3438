public import YAML

/// One flag or preference as declared in a definitions file.
public struct Definition: Sendable {
    /// Whether a definition is a release flag or a long-lived preference. Both resolve through the same layers.
    public enum Kind: String, Sendable, Hashable {
        /// A release toggle: owner, expiry, variants, targeting.
        case flag
        /// A typed setting with constraints.
        case preference
    }

    /// The full key, namespace included: `checkout.new_flow`.
    public var key: String
    /// Flag or preference.
    public var kind: Kind
    /// The declared type; every value of this definition has it.
    public var type: ValueType
    /// The default value (for a variant flag, the default variant's value).
    public var defaultValue: Value
    /// The default variant's name, when the definition has variants.
    public var defaultVariant: String?
    /// What the definition is for.
    public var description: String?
    /// Who owns it.
    public var owner: String?
    /// Free-form tags.
    public var tags: [String]
    /// The day after which a flag is reported as stale.
    public var expires: Day?
    /// Named values, in declaration order; `default` names one of them.
    public var variants: [Variant]
    /// The allowed values, when restricted.
    public var allowedValues: [Value]?
    /// Inclusive lower bound for numbers.
    public var minimum: Double?
    /// Inclusive upper bound for numbers.
    public var maximum: Double?
    /// A regular expression every string value must match as a whole.
    public var pattern: String?
    /// Earlier keys whose persisted overrides now belong to this one.
    public var renamedFrom: [String]
    /// Targeting compiled to the flagd engine (rules, rollouts, prerequisites, kill switch, flagd flags).
    package var targeting: DefinitionTargeting? {
        get { targetingBox?.targeting }
        set { targetingBox = newValue.map(TargetingBox.init) }
    }
    /// Where ``targeting`` is kept: boxed, so the definitions without targeting (most of them) stay small to copy.
    private var targetingBox: TargetingBox?
    /// The schedule and the definition from each step on, when there is a schedule (see ``schedule``).
    var scheduleBox: ScheduleBox?
    /// Whether the definition has a default value; flagd flags without a `defaultVariant` do not, and their
    /// callers get their own default.
    public var hasDefault = true
    /// Metadata served with evaluations (flagd files' `metadata`).
    public var metadata: [String: Value] = [:]
    /// The targeting fields as written, until every file's segments are known.
    var pending: PendingTargeting?
    /// Where the definition's key is written.
    public var location: SourceLocation
    /// Where its default is written.
    public var defaultLocation: SourceLocation

    private final class TargetingBox: Sendable {
        let targeting: DefinitionTargeting

        init(_ targeting: DefinitionTargeting) {
            self.targeting = targeting
        }
    }

    /// A named value of a variant flag. Two variants are equal when their names and values are: where they are
    /// written does not count.
    public struct Variant: Sendable, Hashable {
        /// The variant's name.
        public var name: String
        /// Its value.
        public var value: Value
        /// Where its name is written, when it comes from a definitions file.
        public var location: SourceLocation?

        /// Creates a variant.
        public init(name: String, value: Value, location: SourceLocation? = nil) {
            self.name = name
            self.value = value
            self.location = location
        }

        /// Equal names and values.
        public static func == (a: Variant, b: Variant) -> Bool { a.name == b.name && a.value == b.value }

        /// Hashes the name and the value.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(value)
        }
    }

    /// Creates a definition; the loader is the usual way to get one.
    public init(
        key: String, kind: Kind, type: ValueType, defaultValue: Value, defaultVariant: String? = nil,
        description: String? = nil, owner: String? = nil, tags: [String] = [], expires: Day? = nil,
        variants: [Variant] = [], allowedValues: [Value]? = nil, minimum: Double? = nil, maximum: Double? = nil,
        pattern: String? = nil, renamedFrom: [String] = [], location: SourceLocation,
        defaultLocation: SourceLocation? = nil
    ) {
        self.key = key
        self.kind = kind
        self.type = type
        self.defaultValue = defaultValue
        self.defaultVariant = defaultVariant
        self.description = description
        self.owner = owner
        self.tags = tags
        self.expires = expires
        self.variants = variants
        self.allowedValues = allowedValues
        self.minimum = minimum
        self.maximum = maximum
        self.pattern = pattern
        self.renamedFrom = renamedFrom
        self.location = location
        self.defaultLocation = defaultLocation ?? location
    }

    /// The variant whose value equals `value`, if any.
    public func variant(for value: Value) -> String? {
        variants.first { $0.value == value }?.name
    }

    /// The value of the named variant, if any.
    public func value(ofVariant name: String) -> Value? {
        variants.first { $0.name == name }?.value
    }

    /// Whether the definition is past its `expires` day on `today`: stale. `validate` warns about it, generated
    /// accessors mark it deprecated, and the console marks it.
    public func isExpired(on today: Day) -> Bool {
        expires.map { $0 < today } ?? false
    }
}
