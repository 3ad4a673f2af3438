// Results use the library's own evaluation vocabulary (Evaluation/): ``Resolution``, ``Reason``, ``ErrorCode``
// and ``EvaluationContext``, so flagd flags answer exactly like every other definition.

extension ValueType {
    /// The value as this type for a flagd caller, or `nil` when it is not one. Numbers convert as flagd's
    /// providers convert them: an integer widens to a double, and a whole-number double (`10.0`) is an
    /// integer, since JSON does not tell them apart.
    func coerceFlagd(_ value: Value) -> Value? {
        switch (self, value) {
        case (.bool, .bool), (.string, .string), (.int, .int), (.double, .double), (.list, .list), (.object, .object):
            return value
        case (.double, .int(let number)):
            return .double(Double(number))
        case (.int, .double(let number)):
            guard number == number.rounded(.towardZero), abs(number) < 9.2e18 else { return nil }
            return .int(Int(number))
        default:
            return nil
        }
    }
}

/// Evaluates flagd flags exactly as flagd does. Build it once per loaded flag set; evaluations are pure,
/// thread-safe and allocation-light (rules are compiled at load; the context is read in place).
///
/// ```swift
/// let (flagSet, diagnostics) = FlagdFlagSet.parse(bytes, file: "flags/checkout.flagd.yaml")
/// let evaluator = FlagdEvaluator(flagSet)
/// let result = evaluator.evaluate("new-checkout", as: .bool, default: false,
///                                 context: EvaluationContext(targetingKey: "user-42", attributes: ["tier": "gold"]))
/// ```
package struct FlagdEvaluator: Sendable {
    /// Engine-wide settings.
    package struct Options: Sendable {
        /// The `fractional` bucketing algorithm for flags that do not choose their own. ``FractionalAlgorithm/v3``
        /// is flagd's current one; ``FractionalAlgorithm/v2`` keeps buckets from before flagd's switch to CBOR.
        package var fractionalAlgorithm: FractionalAlgorithm
        /// Attributes every evaluation sees (flagd's `--context-value`); the caller's attributes win on conflict.
        package var staticContext: [String: Value]
        /// Where `$flagd.timestamp` comes from: a board's clock; `nil` for the wall clock.
        package var clock: (any BoardClock)?

        /// Creates options.
        package init(
            fractionalAlgorithm: FractionalAlgorithm = .v3, staticContext: [String: Value] = [:],
            clock: (any BoardClock)? = nil
        ) {
            self.fractionalAlgorithm = fractionalAlgorithm
            self.staticContext = staticContext
            self.clock = clock
        }
    }

    /// What an evaluation decided, before it is dressed as a resolution for an untyped or a typed caller.
    enum Outcome: Sendable {
        /// A variant was served: its position in the flag's ``VariantTable``.
        case variant(Int, Reason)
        /// No variant: disabled, or no default variant to fall back to.
        case noVariant(Reason)
        /// An error.
        case failure(ErrorCode, String)
    }

    /// What evaluation needs of a flag, with everything that does not depend on the context decided ahead of
    /// time. A class with flat fields, so a lookup copies one reference and reading a field retains only that.
    final class CompiledFlag: Sendable {
        let key: String
        let variants: VariantTable
        let hasDefaultVariant: Bool
        let targeting: LogicNode?
        /// Whether the targeting can read `$flagd.timestamp`.
        let readsClock: Bool
        let algorithm: FractionalAlgorithm
        let metadata: [String: Value]
        /// The outcome that needs no targeting: disabled, broken, or static. `nil` when targeting decides.
        let fixedOutcome: Outcome?
        /// The outcome when targeting gives `null`.
        let defaultOutcome: Outcome

        init(flag: FlagdFlag, flagSetMetadata: [String: Value], algorithm: FractionalAlgorithm) {
            key = flag.key
            variants = VariantTable(flag.variants)
            hasDefaultVariant = flag.defaultVariant != nil
            targeting = flag.targeting?.root
            readsClock = flag.targeting?.root.mayReadTimestamp ?? false
            self.algorithm = flag.fractionalAlgorithm ?? algorithm
            metadata = flagSetMetadata.merging(flag.metadata) { _, own in own }
            defaultOutcome = Self.defaultVariant(of: flag, in: variants, reason: .default)
            if let problem = flag.definitionError {
                fixedOutcome = .failure(.parseError, problem)
            } else if flag.state == .disabled {
                fixedOutcome = .noVariant(.disabled)
            } else if let problem = flag.targeting?.root.failureMessage {
                // flagd's engines reject a rule with an unknown operation as a whole, wherever it is.
                fixedOutcome = .failure(.parseError, "the targeting of flag '\(flag.key)' is invalid: \(problem)")
            } else if flag.targeting == nil {
                fixedOutcome = Self.defaultVariant(of: flag, in: variants, reason: .static)
            } else {
                fixedOutcome = nil
            }
        }

        private static func defaultVariant(of flag: FlagdFlag, in variants: VariantTable, reason: Reason) -> Outcome {
            guard let name = flag.defaultVariant else { return .noVariant(.default) }
            guard let index = variants.index(named: name) else {
                return .failure(
                    .general, "the default variant '\(name)' of flag '\(flag.key)' is not one of its variants")
            }
            return .variant(index, reason)
        }
    }

    /// A flag's variants for the lookup after targeting. Flags have a handful of variants, and comparing a
    /// few names byte by byte is cheaper than hashing the name for a dictionary.
    struct VariantTable: Sendable {
        let names: [String]
        let values: [Value]
        let byName: [String: Int]?

        init(_ variants: [String: Value]) {
            let sorted = variants.sorted { $0.key < $1.key }
            names = sorted.map(\.key)
            values = sorted.map(\.value)
            byName = variants.count > 8 ? Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }) : nil
        }

        /// The position of the named variant in ``names`` and ``values``.
        func index(named name: String) -> Int? {
            if let byName { return byName[name] }
            let count = name.utf8.count
            for index in names.indices where names[index].utf8.count == count && JS.stringsEqual(names[index], name) {
                return index
            }
            return nil
        }
    }

    /// The flags evaluated.
    package let flagSet: FlagdFlagSet
    /// Engine-wide settings.
    package let options: Options
    private let entries: [String: CompiledFlag]

    /// The compiled flag of a key, for callers that evaluate it repeatedly and want to skip the lookup by key.
    func entry(forKey key: String) -> CompiledFlag? {
        entries[key]
    }

    /// Creates an evaluator for a flag set.
    package init(_ flagSet: FlagdFlagSet, options: Options = Options()) {
        self.flagSet = flagSet
        self.options = options
        entries = flagSet.flags.mapValues { flag in
            CompiledFlag(flag: flag, flagSetMetadata: flagSet.metadata, algorithm: options.fractionalAlgorithm)
        }
    }

    /// The keys of all flags, sorted.
    package var flagKeys: [String] { entries.keys.sorted() }

    /// Evaluates a flag for a caller that asked for a type, as an OpenFeature provider does: on any error,
    /// when the flag is disabled, and when there is no default variant, ``Resolution/value`` is
    /// `defaultValue` (with the reason and error code saying why).
    ///
    /// - Parameters:
    ///   - key: The flag's key.
    ///   - type: The type asked for (OpenFeature's Boolean, String, Integer, Float and Object are `.bool`,
    ///     `.string`, `.int`, `.double` and `.object`); a value of another type is ``ErrorCode/typeMismatch``.
    ///   - defaultValue: The caller's default.
    ///   - context: Who is asking.
    ///   - timestamp: `$flagd.timestamp` in Unix seconds; `nil` for now.
    package func evaluate(
        _ key: String, as type: ValueType, default defaultValue: Value,
        context: EvaluationContext = .empty, timestamp: Int? = nil
    ) -> Resolution {
        guard let entry = entries[key] else {
            return Resolution(value: defaultValue, reason: .error, errorCode: .flagNotFound,
                              errorMessage: "flag '\(key)' not found", metadata: flagSet.metadata)
        }
        switch outcome(of: entry, context: context, timestamp: timestamp) {
        case .variant(let index, let reason):
            let (name, value) = (entry.variants.names[index], entry.variants.values[index])
            guard let typed = type.coerceFlagd(value) else {
                return Resolution(
                    value: defaultValue, reason: .error, errorCode: .typeMismatch,
                    errorMessage: "flag '\(key)' is \(Self.describe(value)), not \(Self.describe(type))",
                    metadata: entry.metadata
                )
            }
            return Resolution(value: typed, variant: name, reason: reason, layer: .default, metadata: entry.metadata)
        case .noVariant(let reason):
            return Resolution(value: defaultValue, reason: reason, metadata: entry.metadata)
        case .failure(let code, let message):
            return Resolution(value: defaultValue, reason: .error, errorCode: code, errorMessage: message,
                              metadata: entry.metadata)
        }
    }

    /// Evaluates a flag without a type or default, as OFREP does: ``Resolution/value`` is the variant's value,
    /// or `nil` when there is none to give (an error, a disabled flag, no default variant to fall back to).
    package func evaluate(
        _ key: String, context: EvaluationContext = .empty, timestamp: Int? = nil
    ) -> Resolution {
        guard let entry = entries[key] else {
            return Resolution(value: nil, reason: .error, errorCode: .flagNotFound,
                              errorMessage: "flag '\(key)' not found", metadata: flagSet.metadata)
        }
        return resolution(of: entry, context: context, timestamp: timestamp)
    }

    /// ``evaluate(_:context:timestamp:)`` for a flag already looked up.
    func resolution(of entry: CompiledFlag, context: EvaluationContext, timestamp: Int? = nil) -> Resolution {
        switch outcome(of: entry, context: context, timestamp: timestamp) {
        case .variant(let index, let reason):
            return Resolution(value: entry.variants.values[index], variant: entry.variants.names[index], reason: reason,
                              layer: .default, metadata: entry.metadata)
        case .noVariant(let reason):
            return Resolution(value: nil, reason: reason, metadata: entry.metadata)
        case .failure(let code, let message):
            return Resolution(value: nil, reason: .error, errorCode: code, errorMessage: message,
                              metadata: entry.metadata)
        }
    }

    /// What a flag's evaluation decides, before any ``Resolution`` is built.
    func outcome(of entry: CompiledFlag, context: EvaluationContext, timestamp: Int? = nil) -> Outcome {
        Self.outcome(of: entry, context: context, staticContext: options.staticContext, timestamp: timestamp,
                     clock: options.clock)
    }

    /// ``outcome(of:context:timestamp:)`` without the engine: static, so a caller holding an entry does not copy
    /// the engine's fields to ask.
    static func outcome(
        of entry: CompiledFlag, context: EvaluationContext, staticContext: [String: Value], timestamp: Int? = nil,
        clock: (any BoardClock)? = nil
    ) -> Outcome {
        if let fixed = entry.fixedOutcome { return fixed }
        guard let targeting = entry.targeting else { return entry.defaultOutcome }
        let key = entry.key
        // One reading of the clock per evaluation, so every $flagd.timestamp in a rule agrees.
        let run = LogicRun(
            context: context, staticAttributes: staticContext, flagKey: key,
            timestamp: timestamp ?? (entry.readsClock ? clock.map { Int($0.now()) } ?? LogicRun.clock() : nil),
            algorithm: entry.algorithm
        )
        let result: Value
        do {
            result = try run.evaluate(targeting, in: nil)
        } catch {
            return .failure(.parseError, "targeting of flag '\(key)' failed: \(error.message)")
        }
        // flagd takes the variant name from the result's JSON text, so true, 1 and "1" name variants too.
        let name: String
        switch result {
        case .null:
            return entry.defaultOutcome
        case .string(let text):
            name = text
        case .bool, .int, .double:
            name = JS.toString(result)
        case .list, .object:
            return .failure(.general, "targeting of flag '\(key)' gave \(Self.describe(result)), not a variant name")
        }
        guard let index = entry.variants.index(named: name) else {
            if name.isEmpty && !entry.hasDefaultVariant { return entry.defaultOutcome }
            return .failure(.general, "targeting of flag '\(key)' gave '\(name)', which is not one of its variants")
        }
        return .variant(index, .targetingMatch)
    }

    private static func describe(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a float"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        }
    }

    private static func describe(_ type: ValueType) -> String {
        switch type {
        case .bool: "a boolean"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a float"
        case .list: "a list"
        case .object: "an object"
        }
    }
}
