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
    public var targeting: DefinitionTargeting? {
        get { targetingBox?.targeting }
        set { targetingBox = newValue.map(TargetingBox.init) }
    }
    /// Where ``targeting`` is kept: boxed, so the definitions without targeting (most of them) stay small to copy.
    private var targetingBox: TargetingBox?
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

    /// A named value of a variant flag.
    public struct Variant: Sendable, Hashable {
        /// The variant's name.
        public var name: String
        /// Its value.
        public var value: Value

        /// Creates a variant.
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
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

/// A calendar day, as written in `expires: 2027-03-01`.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Parses `YYYY-MM-DD`, checking that the day exists (no February 30th).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates a day from its parts; the caller checks them.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Today in UTC.
    public static func today() -> Day {
        Day(daysSinceEpoch: Int(Clock.secondsSinceEpoch()) / 86_400)
    }

    /// The day a number of days after 1970-01-01 (Howard Hinnant's civil-from-days).
    public init(daysSinceEpoch: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Chronological order.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
