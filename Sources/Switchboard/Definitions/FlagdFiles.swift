import YAML

/// flagd flag files as Switchboard definitions: each flag becomes a definition that evaluates exactly as flagd
/// does, and that the file, env and runtime layers can override like any other.
enum FlagdFiles {
    /// Whether a path names a flagd file: `*.flagd.yaml`, `*.flagd.yml` or `*.flagd.json`.
    static func isFlagdFile(_ path: String) -> Bool {
        path.hasSuffix(".flagd.yaml") || path.hasSuffix(".flagd.yml") || path.hasSuffix(".flagd.json")
    }

    /// One definition per flag, in file order.
    static func definitions(of flagSet: FlagdFlagSet, file: String) -> [Definition] {
        let start = SourceLocation(file: file, line: 1, column: 1)
        let flags = flagSet.flags.values.sorted { ($0.location ?? start, $0.key) < ($1.location ?? start, $1.key) }
        return flags.map { flag in
            var flag = flag
            flag.metadata = flagSet.metadata.merging(flag.metadata) { _, own in own }
            let variants = flag.variants.sorted { $0.key < $1.key }.map { Definition.Variant(name: $0.key, value: $0.value) }
            let defaultValue = flag.defaultVariant.flatMap { flag.variants[$0] }
            var definition = Definition(
                key: flag.key, kind: .flag, type: inferType(flag, default: defaultValue),
                defaultValue: defaultValue ?? .null, defaultVariant: defaultValue == nil ? nil : flag.defaultVariant,
                variants: variants, location: flag.location ?? start)
            definition.hasDefault = defaultValue != nil
            definition.metadata = flag.metadata
            definition.description = flag.metadata["description"]?.stringValue
            let outcomes = Dictionary(uniqueKeysWithValues: variants.map {
                ($0.name, DefinitionTargeting.Outcome(value: $0.value, variant: $0.name))
            })
            definition.targeting = DefinitionTargeting(flag: flag, outcomes: outcomes, isFlagd: true)
            return definition
        }
    }

    /// flagd loads a file whose flags have broken targeting and answers PARSE_ERROR for those flags when they are
    /// evaluated; so does Switchboard. Such problems are reported as warnings, so the rest of the file is served.
    /// A file that does not parse at all stays an error.
    static func tolerated(_ diagnostics: [Diagnostic], loaded: Bool) -> [Diagnostic] {
        guard loaded else { return diagnostics }
        return diagnostics.map { diagnostic in
            guard diagnostic.isError else { return diagnostic }
            var warning = diagnostic
            warning.severity = .warning
            warning.hint = (diagnostic.hint.map { $0 + "; " } ?? "") + "the flag loads, and evaluating it gives an error, as in flagd"
            return warning
        }
    }

    /// The type all variants share; with mixed numbers, double; otherwise the default variant's type.
    static func inferType(_ flag: FlagdFlag, default defaultValue: Value?) -> ValueType {
        let types = Set(flag.variants.values.compactMap(\.type))
        if types.count == 1 { return types.first! }
        if types == [.int, .double] { return .double }
        return defaultValue?.type ?? types.sorted { $0.rawValue < $1.rawValue }.first ?? .string
    }
}
