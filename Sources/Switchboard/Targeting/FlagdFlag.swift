package import YAML

/// One flag in flagd's flag-definition format.
///
/// ```yaml
/// flags:
///   new-checkout:
///     state: ENABLED
///     variants: { "on": true, "off": false }
///     defaultVariant: "off"
///     targeting: { "if": [{ "$ref": "is_staff" }, "on", null] }
///     metadata: { owner: payments }
/// ```
package struct FlagdFlag: Sendable {
    /// Whether a flag is served.
    package enum State: String, Sendable, Hashable, CaseIterable {
        /// Evaluated normally.
        case enabled = "ENABLED"
        /// Not evaluated: callers get their default with reason ``Reason/disabled``.
        case disabled = "DISABLED"
    }

    /// The flag's key.
    package var key: String
    /// Whether it is served.
    package var state: State
    /// Variant names and their values.
    package var variants: [String: Value]
    /// The variant served when targeting is absent or gives `null`; with none, callers get their own default.
    package var defaultVariant: String?
    /// The targeting rule; `nil` when absent or `{}`.
    package var targeting: JSONLogic?
    /// The flag's own metadata (evaluation results merge it over the flag set's).
    package var metadata: [String: Value]
    /// The bucketing algorithm for this flag's `fractional`, overriding the evaluator's; `nil` to use that.
    package var fractionalAlgorithm: FractionalAlgorithm?
    /// Why the definition cannot be evaluated at all (such as an unknown `state`); evaluating it then gives
    /// ``ErrorCode/parseError``.
    package var definitionError: String?
    /// Where the flag is defined, when it was loaded from a file.
    package var location: SourceLocation?

    /// Creates a flag.
    package init(
        key: String,
        state: State = .enabled,
        variants: [String: Value],
        defaultVariant: String?,
        targeting: JSONLogic? = nil,
        metadata: [String: Value] = [:],
        fractionalAlgorithm: FractionalAlgorithm? = nil,
        location: SourceLocation? = nil
    ) {
        self.key = key
        self.state = state
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.targeting = targeting
        self.metadata = metadata
        self.fractionalAlgorithm = fractionalAlgorithm
        self.location = location
    }
}

/// The flags of one flagd flag-definition file (`*.flagd.json`, `*.flagd.yaml`), with `$evaluators` already
/// substituted into each flag's targeting.
package struct FlagdFlagSet: Sendable {
    /// Flags by key.
    package var flags: [String: FlagdFlag]
    /// Flag-set metadata, which each flag's own metadata overrides key by key.
    package var metadata: [String: Value]

    /// Creates a flag set.
    package init(flags: [String: FlagdFlag] = [:], metadata: [String: Value] = [:]) {
        self.flags = flags
        self.metadata = metadata
    }

    /// Reads a flag file's bytes (JSON or YAML: JSON parses as YAML's flow syntax, keeping positions).
    ///
    /// Never throws: the flags that could be read are returned with every problem found, and a flag whose
    /// definition is broken evaluates to an error as flagd would report it. Diagnostics are in file order.
    package static func parse(_ bytes: [UInt8], file: String) -> (flagSet: FlagdFlagSet, diagnostics: [Diagnostic]) {
        let document = YAMLParser.parse(bytes, file: file)
        var diagnostics = document.problems.map(Diagnostic.init)
        guard let root = document.root else {
            if document.isEmpty {
                diagnostics.append(.error(at: SourceLocation(file: file, line: 1, column: 1),
                                          "the flagd file is empty", hint: "add a top-level 'flags' mapping"))
            }
            return (FlagdFlagSet(), Diagnostic.sorted(diagnostics))
        }
        let (flagSet, loadDiagnostics) = load(root)
        return (flagSet, Diagnostic.sorted(diagnostics + loadDiagnostics))
    }

    /// Reads a parsed flag file. Diagnostics carry file, line and column.
    package static func load(_ root: Node) -> (flagSet: FlagdFlagSet, diagnostics: [Diagnostic]) {
        var loader = FlagdLoader()
        let flagSet = loader.load(RuleSource(node: root))
        return (flagSet, Diagnostic.sorted(loader.diagnostics))
    }

    /// Reads a flag file already parsed as a value (diagnostics then have no location).
    package static func load(_ value: Value) -> (flagSet: FlagdFlagSet, diagnostics: [Diagnostic]) {
        var loader = FlagdLoader()
        let flagSet = loader.load(RuleSource(value: value))
        return (flagSet, loader.diagnostics)
    }
}

/// Reads flagd's format and reports what flagd's schema and evaluation would reject, where it is written.
private struct FlagdLoader {
    var diagnostics: [Diagnostic] = []

    private static let topLevelKeys = ["flags", "$evaluators", "metadata", "$schema"]
    private static let flagKeys = ["state", "variants", "defaultVariant", "targeting", "metadata"]

    mutating func error(_ location: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(.error(at: location, message, hint: hint))
    }

    mutating func warning(_ location: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(.warning(at: location, message, hint: hint))
    }

    mutating func load(_ root: RuleSource) -> FlagdFlagSet {
        guard case .object(let members) = root.kind else {
            error(root.location, "a flagd file is a mapping with a 'flags' key, not \(root.kindDescription)")
            return FlagdFlagSet()
        }
        var flagsSource: RuleSource.Member?
        var evaluators: [String: RuleSource] = [:]
        var flagSet = FlagdFlagSet()
        for member in members {
            switch member.key {
            case "flags":
                flagsSource = member
            case "$evaluators":
                guard case .object(let entries) = member.value.kind else {
                    error(member.value.location ?? member.keyLocation,
                          "$evaluators is a mapping of names to rules, not \(member.value.kindDescription)")
                    continue
                }
                for entry in entries { evaluators[entry.key] = entry.value }
            case "metadata":
                flagSet.metadata = metadata(member.value)
            case "$schema":
                break
            default:
                warning(member.keyLocation, "unknown top-level key '\(member.key)'",
                        hint: LogicCompiler.suggestion(for: member.key, among: Self.topLevelKeys)
                            ?? "a flagd file has flags, $evaluators, metadata and $schema")
            }
        }
        let compiler = LogicCompiler(evaluators: evaluators)
        compiler.compileAllEvaluators()
        var compilerDiagnosticsSeen = compiler.diagnostics.count
        diagnostics += compiler.diagnostics

        guard let flagsSource else {
            error(root.location, "the file has no 'flags' mapping", hint: "add flags: { my-flag: { ... } }")
            return flagSet
        }
        guard case .object(let flagMembers) = flagsSource.value.kind else {
            error(flagsSource.value.location ?? flagsSource.keyLocation,
                  "'flags' is a mapping of flag keys to definitions, not \(flagsSource.value.kindDescription)")
            return flagSet
        }
        for member in flagMembers {
            guard let flag = self.flag(member, compiler: compiler, compilerDiagnosticsSeen: &compilerDiagnosticsSeen)
            else { continue }
            flagSet.flags[member.key] = flag
        }
        return flagSet
    }

    private mutating func flag(
        _ member: RuleSource.Member, compiler: LogicCompiler, compilerDiagnosticsSeen: inout Int
    ) -> FlagdFlag? {
        let key = member.key
        let location = member.keyLocation ?? member.value.location
        guard case .object(let fields) = member.value.kind else {
            error(member.value.location ?? location,
                  "flag '\(key)' is a mapping with state, variants and defaultVariant, "
                      + "not \(member.value.kindDescription)")
            return nil
        }
        var state: FlagdFlag.State = .enabled
        var stateSeen = false
        var variants: [String: Value] = [:]
        var variantsSource: RuleSource?
        var defaultVariant: String?
        var defaultVariantLocation: SourceLocation?
        var targetingSource: RuleSource?
        var flagMetadata: [String: Value] = [:]
        var definitionError: String?

        for field in fields {
            let value = field.value
            let at = value.location ?? field.keyLocation
            switch field.key {
            case "state":
                stateSeen = true
                if case .scalar(.string(let text)) = value.kind, let parsed = FlagdFlag.State(rawValue: text) {
                    state = parsed
                } else {
                    let written = value.kindDescription == "a string" ? "'\(value.value.stringValue ?? "")'"
                                                                     : value.kindDescription
                    error(at, "the state of flag '\(key)' must be ENABLED or DISABLED, not \(written)")
                    definitionError = "flag '\(key)' has an invalid state"
                }
            case "variants":
                variantsSource = value
                guard case .object(let entries) = value.kind else {
                    error(at, "the variants of flag '\(key)' are a mapping of names to values, "
                              + "not \(value.kindDescription)")
                    definitionError = "flag '\(key)' has invalid variants"
                    continue
                }
                for entry in entries { variants[entry.key] = entry.value.value }
                if entries.isEmpty {
                    error(at, "flag '\(key)' has no variants", hint: "add at least one, such as { \"on\": true }")
                }
                checkVariantTypes(entries, flag: key, at: at)
            case "defaultVariant":
                defaultVariantLocation = at
                switch value.kind {
                case .scalar(.null): defaultVariant = nil
                case .scalar(.string(let name)): defaultVariant = name
                case .scalar(let scalar):
                    // YAML reads an unquoted on/true/1 as a non-string; flagd names are strings.
                    defaultVariant = JS.toString(scalar)
                    error(at, "the defaultVariant of flag '\(key)' must be a variant name (a string), "
                              + "not \(value.kindDescription)",
                          hint: "quote it: defaultVariant: '\(JS.toString(scalar))'")
                default:
                    error(at, "the defaultVariant of flag '\(key)' must be a variant name, "
                              + "not \(value.kindDescription)")
                    definitionError = "flag '\(key)' has an invalid defaultVariant"
                }
            case "targeting":
                targetingSource = value
            case "metadata":
                flagMetadata = metadata(value)
            default:
                warning(field.keyLocation, "unknown field '\(field.key)' in flag '\(key)'",
                        hint: LogicCompiler.suggestion(for: field.key, among: Self.flagKeys)
                            ?? "a flag has state, variants, defaultVariant, targeting and metadata")
            }
        }
        if !stateSeen {
            error(location, "flag '\(key)' has no state", hint: "add state: ENABLED")
            definitionError = definitionError ?? "flag '\(key)' has no state"
        }
        if variantsSource == nil {
            error(location, "flag '\(key)' has no variants", hint: "add variants: { \"on\": true, \"off\": false }")
            definitionError = definitionError ?? "flag '\(key)' has no variants"
        }
        if let defaultVariant, variantsSource != nil, variants[defaultVariant] == nil {
            error(defaultVariantLocation ?? location,
                  "the defaultVariant '\(defaultVariant)' of flag '\(key)' is not one of its variants",
                  hint: LogicCompiler.suggestion(for: defaultVariant, among: variants.keys.sorted())
                      ?? "variants: \(variants.keys.sorted().joined(separator: ", "))")
        }

        var targeting: JSONLogic?
        if let targetingSource {
            if case .object(let members) = targetingSource.kind, members.isEmpty {
                targeting = nil  // flagd treats {} as no targeting
            } else {
                let root = compiler.compile(targetingSource)
                let own = Array(compiler.diagnostics[compilerDiagnosticsSeen...])
                compilerDiagnosticsSeen = compiler.diagnostics.count
                diagnostics += own
                targeting = JSONLogic(root: root, diagnostics: own, source: .object([
                    "rule": targetingSource.value, "$evaluators": compiler.evaluatorSource]))
                if variantsSource != nil { checkResults(of: targetingSource, flag: key, variants: variants) }
            }
        }

        var flag = FlagdFlag(
            key: key, state: state, variants: variants, defaultVariant: defaultVariant, targeting: targeting,
            metadata: flagMetadata, location: location
        )
        flag.definitionError = definitionError
        return flag
    }

    /// flagd's schema wants all of a flag's variants to be of one type (boolean, string, number or object).
    private mutating func checkVariantTypes(_ entries: [RuleSource.Member], flag key: String, at: SourceLocation?) {
        func kind(_ value: Value) -> String {
            switch value {
            case .bool: "boolean"
            case .int, .double: "number"
            case .string: "string"
            case .object: "object"
            case .list: "list"
            case .null: "null"
            }
        }
        var first: (name: String, kind: String)?
        for entry in entries {
            let entryKind = kind(entry.value.value)
            if entryKind == "null" || entryKind == "list" {
                error(entry.value.location ?? entry.keyLocation,
                      "variant '\(entry.key)' of flag '\(key)' is \(entryKind == "null" ? "null" : "a list"); "
                          + "flagd variants are booleans, strings, numbers or objects")
                continue
            }
            guard let first else {
                first = (entry.key, entryKind)
                continue
            }
            if first.kind != entryKind {
                warning(entry.value.location ?? entry.keyLocation,
                        "variant '\(entry.key)' of flag '\(key)' is a \(entryKind) but '\(first.name)' is a "
                            + "\(first.kind); flagd expects all variants of a flag to have one type")
                return
            }
        }
    }

    /// Metadata: a mapping of names to strings, numbers or booleans.
    private mutating func metadata(_ source: RuleSource) -> [String: Value] {
        guard case .object(let entries) = source.kind else {
            error(source.location, "metadata is a mapping of names to strings, numbers or booleans, "
                                   + "not \(source.kindDescription)")
            return [:]
        }
        var result: [String: Value] = [:]
        for entry in entries {
            let value = entry.value.value
            switch value {
            case .bool, .int, .double, .string: break
            default:
                error(entry.value.location ?? entry.keyLocation,
                      "metadata '\(entry.key)' is \(entry.value.kindDescription); metadata values are strings, "
                          + "numbers or booleans")
            }
            result[entry.key] = value
        }
        return result
    }

    /// Warns about variant names the targeting can return that the flag does not define.
    private mutating func checkResults(of source: RuleSource, flag key: String, variants: [String: Value]) {
        diagnostics += FlagdFlag.unknownResults(of: source, flag: key, variants: variants.keys.sorted())
    }
}

extension FlagdFlag {
    /// Warnings for the variant names a targeting rule can return that the flag does not define (flagd reports
    /// those as a GENERAL error when they are reached): for a flagd file's flags and a definition's JSONLogic
    /// `targeting` alike.
    static func unknownResults(of source: RuleSource, flag key: String, variants: [String]) -> [Diagnostic] {
        var results: [(name: String, location: SourceLocation?)] = []
        collectResults(source, into: &results)
        return results.filter { !variants.contains($0.name) }.map { result in
            .warning(at: result.location,
                     "targeting of flag '\(key)' can give '\(result.name)', which is not a variant",
                     hint: LogicCompiler.suggestion(for: result.name, among: variants)
                         ?? "variants: \(variants.joined(separator: ", "))")
        }
    }

    /// The literal variant names in result positions: the rule itself, `if` branches, `fractional` buckets.
    private static func collectResults(
        _ source: RuleSource, into results: inout [(name: String, location: SourceLocation?)]
    ) {
        switch source.kind {
        case .scalar(let value):
            switch value {
            case .string(let name): results.append((name, source.location))
            case .bool, .int, .double: results.append((JS.toString(value), source.location))
            default: break
            }
        case .list:
            break
        case .object(let members):
            guard members.count == 1, let member = members.first, let args = member.value.listItems else { return }
            switch member.key {
            case "if", "?:":
                for index in stride(from: 1, to: args.count, by: 2) { collectResults(args[index], into: &results) }
                if args.count % 2 == 1 { collectResults(args[args.count - 1], into: &results) }
            case "fractional":
                for bucket in args {
                    if let name = bucket.listItems?.first {
                        // fractional inside a condition gives booleans, which are not variant names.
                        if case .scalar(.bool) = name.kind { continue }
                        collectResults(name, into: &results)
                    }
                }
            default:
                break
            }
        }
    }
}
