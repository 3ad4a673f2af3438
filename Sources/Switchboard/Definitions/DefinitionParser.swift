import YAML

/// Reads the definitions of one parsed file, checking every rule of the format and collecting a diagnostic at
/// the node that breaks it.
struct DefinitionParser {
    let file: String
    let today: Day
    private(set) var definitions: [Definition] = []
    private(set) var diagnostics: [Diagnostic] = []

    static let topLevelFields = ["namespace", "flags", "preferences", "segments"]
    static let definitionFields = [
        "type", "default", "description", "owner", "tags", "expires", "variants", "values", "min", "max",
        "pattern", "renamed_from", "rules", "rollout", "requires", "enabled", "targeting", "bucketing", "schedule",
    ]
    /// No definition is written in fewer bytes (`a: {type: int, default: 1}` and its line break take 28): so many
    /// bytes of a file hold at most one definition, for sizing arrays before reading.
    static let smallestDefinitionBytes = 16

    /// Segments defined in this file, by name.
    private(set) var segments: [(name: String, conditions: Node, location: SourceLocation)] = []

    init(file: String, today: Day) {
        self.file = file
        self.today = today
    }

    /// The definitions read, leaving none here: the caller gets the only reference to the array, so it can move
    /// them out rather than copy each one.
    mutating func takeDefinitions() -> [Definition] {
        defer { definitions = [] }
        return definitions
    }

    /// The errors reported through ``error(_:_:hint:)`` so far, to tell whether a definition had any.
    private var errorCount = 0

    mutating func error(_ node: Node, _ message: String, hint: String? = nil) {
        diagnostics.append(.error(at: node.location, message, hint: hint))
        errorCount += 1
    }

    /// The namespace the top-level pairs set: `nil` when none of them is `namespace`, `.some(nil)` when it is
    /// invalid (``parse(_:detached:)`` reports why).
    static func namespace(in pairs: [Node.Pair]) -> String?? {
        guard let pair = pairs.first(where: { $0.key.scalar?.text == "namespace" }) else { return nil }
        guard let scalar = pair.value.scalar, case .string = scalar.value, KeySyntax.isValid(scalar.text) else {
            return .some(nil)
        }
        return .some(scalar.text)
    }

    /// Appends part of what another parser of the same file found (the entries a worker thread read).
    mutating func absorb(_ other: DefinitionParser, diagnostics: Range<Int>, segments: Range<Int>) {
        if !diagnostics.isEmpty { self.diagnostics += other.diagnostics[diagnostics] }
        if !segments.isEmpty { self.segments += other.segments[segments] }
    }

    /// Makes room for `count` definitions.
    mutating func reserve(definitions count: Int) {
        definitions.reserveCapacity(count)
    }

    /// Appends `definition` and has `finish` complete it in place (through the array's buffer: reading an element
    /// of the array copied it whole); takes it back out when `finish` says no. Whether it stayed.
    mutating func append(_ definition: consuming Definition, finishing finish: (inout Definition) -> Bool) -> Bool {
        definitions.append(definition)
        let finished = definitions.withUnsafeMutableBufferPointer { finish(&$0[$0.count - 1]) }
        if !finished { definitions.removeLast() }
        return finished
    }

    /// Removes and returns the definition read last, if any.
    mutating func takeLastDefinition() -> Definition? {
        definitions.popLast()
    }

    /// Appends definitions read by other parsers of the same file.
    mutating func absorb(definitions: [Definition]) {
        if self.definitions.isEmpty { self.definitions = definitions } else { self.definitions += definitions }
    }

    /// Reads a document. The entries of the top-level keys in `detached` were taken out while parsing (see
    /// ``DefinitionPipeline``) and are read by another parser.
    mutating func parse(_ document: YAMLDocument, detached: Set<String> = []) {
        diagnostics.append(contentsOf: document.problems.map(Diagnostic.init))
        guard let root = document.root else {
            if document.isEmpty {
                diagnostics.append(.warning(
                    at: SourceLocation(file: file, line: 1, column: 1), "the file defines nothing",
                    hint: "add `flags:` or `preferences:`, or delete the file"))
            }
            return
        }
        guard let pairs = root.pairs else {
            if case .scalar(let scalar) = root.content, case .null = scalar.value {
                diagnostics.append(.warning(at: root.location, "the file defines nothing",
                                            hint: "add `flags:` or `preferences:`, or delete the file"))
                return
            }
            error(root, "expected a mapping with `flags` and/or `preferences` at the top level, found \(root.kindDescription)",
                  hint: "start the file with `flags:` or `preferences:`")
            return
        }
        // `namespace(in:)` decides, as it does for the split parse; a written namespace it refuses is reported here.
        let namespace = Self.namespace(in: pairs) ?? nil
        if namespace == nil, let pair = pairs.first(where: { $0.key.scalar?.text == "namespace" }) {
            if let scalar = pair.value.scalar, case .string = scalar.value {
                error(pair.value, "invalid namespace '\(scalar.text)'", hint: KeySyntax.hint(for: scalar.text))
            } else {
                error(pair.value, "namespace must be a string, found \(pair.value.kindDescription)")
            }
        }
        for pair in pairs {
            guard let name = pair.key.scalar?.text else {
                error(pair.key, "expected a field name, found \(pair.key.kindDescription)")
                continue
            }
            switch name {
            case "namespace":
                continue
            case "segments":
                if case .scalar(let scalar) = pair.value.content, case .null = scalar.value { continue }
                guard let entries = pair.value.pairs else {
                    error(pair.value, "`segments` must be a mapping from names to condition lists, found \(pair.value.kindDescription)")
                    continue
                }
                for entry in entries {
                    guard let name = entry.key.scalar?.text, KeySyntax.isValid(name) else {
                        let written = entry.key.scalar?.text ?? entry.key.kindDescription
                        error(entry.key, "invalid segment name '\(written)'", hint: KeySyntax.hint(for: written))
                        continue
                    }
                    segments.append((name, entry.value, entry.key.location))
                }
            case "flags", "preferences":
                if detached.contains(name) { continue }
                let kind: Definition.Kind = name == "flags" ? .flag : .preference
                if case .scalar(let scalar) = pair.value.content, case .null = scalar.value { continue }
                guard let entries = pair.value.pairs else {
                    error(pair.value, "`\(name)` must be a mapping from keys to definitions, found \(pair.value.kindDescription)")
                    continue
                }
                // Room for them all at once: growing an array of definitions moves each one again.
                definitions.reserveCapacity(definitions.count + entries.count)
                for entry in entries { parseDefinition(entry, kind: kind, namespace: namespace) }
            default:
                unknownField(pair.key, name, known: Self.topLevelFields, where: "at the top level")
            }
        }
    }

    mutating func unknownField(_ key: Node, _ name: String, known: [String], where place: String) {
        let hint: String = if name == "<<" {
            "merge keys (<<) are YAML 1.1 and not supported; alias the whole mapping (`key: *anchor`) instead"
        } else if let suggestion = Suggestions.nearest(to: name, in: known) {
            "did you mean '\(suggestion)'?"
        } else {
            "known fields: \(known.joined(separator: ", "))"
        }
        error(key, "unknown field '\(name)' \(place)", hint: hint)
    }

    mutating func parseDefinition(_ entry: Node.Pair, kind: Definition.Kind, namespace: String?) {
        // Returned, then appended: appending the local definition itself copied it whole, field by field.
        if let definition = readDefinition(entry, kind: kind, namespace: namespace) { definitions.append(definition) }
    }

    /// One definition, or `nil` when it has an error (reported).
    private mutating func readDefinition(_ entry: Node.Pair, kind: Definition.Kind, namespace: String?) -> Definition? {
        guard let localKey = entry.key.scalar?.text else {
            error(entry.key, "expected a key, found \(entry.key.kindDescription)")
            return nil
        }
        guard KeySyntax.isValid(localKey) else {
            error(entry.key, "invalid key '\(localKey)'", hint: KeySyntax.hint(for: localKey))
            return nil
        }
        let key = Self.fullKey(localKey, namespace: namespace)
        guard let fields = entry.value.pairs else {
            error(entry.value, "the definition of \(key) must be a mapping of fields, found \(entry.value.kindDescription)",
                  hint: "write at least `type:` and `default:` below the key")
            return nil
        }
        var node = FieldTable(fields)
        // A misspelt required field is reported once, as the typo, not again as missing.
        var misspelt = Set<String>()
        // By index: iterating the pairs would copy each one.
        for position in fields.indices {
            guard case .scalar(let scalar) = fields[position].key.content else {
                error(fields[position].key, "expected a field name, found \(fields[position].key.kindDescription)")
                continue
            }
            let name = scalar.text
            if let known = FieldTable.Field(name: name) {
                node.set(known, position: position)
            } else {
                unknownField(fields[position].key, name, known: Self.definitionFields, where: "in \(key)")
                if let meant = Suggestions.nearest(to: name, in: Self.definitionFields) { misspelt.insert(meant) }
            }
        }
        let errorsBefore = errorCount
        guard let typeNode = node[.type] else {
            if misspelt.contains("type") { return nil }
            error(entry.key, "\(key) has no `type`",
                  hint: "add `type:` with one of \(ValueType.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        guard let typeName = typeNode.scalar?.text, let type = ValueType(rawValue: typeName) else {
            let written = typeNode.scalar?.text ?? typeNode.kindDescription
            let names = ValueType.allCases.map(\.rawValue)
            let aliases = ["boolean": "bool", "integer": "int", "number": "double", "float": "double",
                           "str": "string", "array": "list", "map": "object", "dictionary": "object"]
            let suggestion = aliases[written.lowercased()] ?? Suggestions.nearest(to: written, in: names)
            error(typeNode, "unknown type '\(written)'",
                  hint: suggestion.map(Message.didYouMean(one:)) ?? "types: \(names.joined(separator: ", "))")
            return nil
        }
        var definition = Definition(
            key: key, kind: kind, type: type, defaultValue: .null, location: entry.key.location
        )
        definition.description = text(node[.description], field: "description")
        definition.owner = text(node[.owner], field: "owner")
        definition.tags = stringList(node[.tags], field: "tags")
        if let expiresNode = node[.expires] {
            definition.expires = day(expiresNode, key: key, kind: kind)
        }
        if let renamed = node[.renamedFrom] {
            let names = renamed.scalar != nil ? [text(renamed, field: "renamed_from") ?? ""]
                : stringList(renamed, field: "renamed_from")
            for (index, name) in names.enumerated() where !KeySyntax.isValid(name) {
                let at = renamed.items?[index] ?? renamed
                error(at, "invalid key '\(name)' in renamed_from", hint: KeySyntax.hint(for: name))
            }
            definition.renamedFrom = names.filter(KeySyntax.isValid)
        }
        if node.has(.variants), let valuesKey = node.key(.values) {
            error(valuesKey, "\(key) has both `variants` and `values`",
                  hint: "use variants for named values, or values for a list of allowed values, not both")
            node.remove(.values)
        }
        parseConstraints(&definition, node)
        var refusedVariants: [String] = []
        if let variantsNode = node[.variants] {
            refusedVariants = parseVariants(&definition, variantsNode)
        }
        // A refused variant or allowed value is one mistake: its rules are not checked without it, which would
        // report it again in each rule that serves it.
        let valuesIntact = node[.values].map { $0.items?.count == definition.allowedValues?.count } ?? true
        if node.hasTargeting {
            definition.pending = PendingTargeting(
                rules: node[.rules], rollout: node[.rollout], requires: node[.requires], enabled: node[.enabled],
                targeting: node[.targeting], bucketing: node[.bucketing], schedule: node[.schedule],
                location: entry.key.location)
        }
        guard let defaultNode = node[.default] else {
            if !misspelt.contains("default") {
                error(entry.key, "\(key) has no `default`", hint: "add `default:` with \(type.withArticle) value")
            }
            if let pending = definition.pending, refusedVariants.isEmpty, valuesIntact {
                checkTargeting(pending, of: definition)
            }
            return nil
        }
        definition.defaultLocation = defaultNode.location
        parseDefault(&definition, defaultNode, refusedVariants: refusedVariants)
        guard errorCount == errorsBefore else {
            if let pending = definition.pending, refusedVariants.isEmpty, valuesIntact {
                checkTargeting(pending, of: definition)
            }
            return nil
        }
        return definition
    }

    /// Checks the targeting and schedule of a definition that has a mistake elsewhere (its default, a constraint, an
    /// unknown field) and so will not load, so that one run reports every mistake: against its type and constraints,
    /// with every segment taken as known (segments are read from every file, and an unknown one is reported when
    /// a definition that loads uses it). Its schedule is checked when its own rules hold and its default was read.
    private mutating func checkTargeting(_ pending: PendingTargeting, of definition: Definition) {
        var compiler = RuleCompiler(segments: [:])
        compiler.segmentsUnknown = true
        let targeting = compiler.compile(pending, for: definition)
        if let schedule = pending.schedule, definition.defaultValue != .null,
           !compiler.diagnostics.contains(where: \.isError)
        {
            _ = compiler.compileSchedule(schedule, pending: pending, for: definition,
                                         prerequisites: targeting?.prerequisites ?? [])
        }
        diagnostics += compiler.diagnostics
        errorCount += compiler.diagnostics.count(where: \.isError)
    }

    /// A key as written in a file, with the file's namespace before it.
    static func fullKey(_ localKey: String, namespace: String?) -> String {
        guard let namespace else { return localKey }
        var joined = namespace
        joined.reserveCapacity(namespace.utf8.count + 1 + localKey.utf8.count)
        joined += "."
        joined += localKey
        return joined
    }

    /// Reads `default`; with variants it names one. A default naming a variant whose value was refused
    /// (`refusedVariants`) adds no error of its own: the variant's error is the one mistake.
    mutating func parseDefault(_ definition: inout Definition, _ node: Node, refusedVariants: [String]) {
        if !definition.variants.isEmpty || !refusedVariants.isEmpty {
            if let name = node.scalar?.text, refusedVariants.contains(name) { return }
            guard let name = node.scalar?.text, let value = definition.value(ofVariant: name) else {
                let names = definition.variants.map(\.name) + refusedVariants
                let written = node.scalar?.text ?? node.kindDescription
                error(node, "default '\(written)' is not a variant of \(definition.key)",
                      hint: "with variants, default names one of them: \(names.joined(separator: ", "))")
                return
            }
            definition.defaultVariant = name
            definition.defaultValue = value
            return
        }
        switch Value.from(node, as: definition.type) {
        case .failure(let problem):
            error(node, "default of \(definition.key): \(problem.message)", hint: problem.hint)
        case .success(let value):
            if let problem = definition.problem(with: value) {
                error(node, "default of \(definition.key): \(problem.message)", hint: problem.hint)
            } else {
                definition.defaultValue = value
            }
        }
    }

    /// Reads `variants`, and returns the names of those whose value was refused (each with its error).
    mutating func parseVariants(_ definition: inout Definition, _ node: Node) -> [String] {
        guard let pairs = node.pairs, !pairs.isEmpty else {
            error(node, "variants must be a mapping from names to values, found \(node.kindDescription)",
                  hint: "for example `variants: { control: blue, treatment: green }`")
            return []
        }
        var refused: [String] = []
        for pair in pairs {
            guard let name = pair.key.scalar?.text, !name.isEmpty else {
                error(pair.key, "a variant name must be a string")
                continue
            }
            switch Value.from(pair.value, as: definition.type) {
            case .failure(let problem):
                error(pair.value, "variant '\(name)' of \(definition.key): \(problem.message)", hint: problem.hint)
                refused.append(name)
            case .success(let value):
                if let problem = definition.constraintProblem(with: value, checkingVariants: false)
                    ?? (value.doubleValue?.isFinite == false ? definition.problem(with: value) : nil)
                {
                    error(pair.value, "variant '\(name)' of \(definition.key): \(problem.message)", hint: problem.hint)
                    refused.append(name)
                } else {
                    definition.variants.append(.init(name: name, value: value, location: pair.key.location))
                }
            }
        }
        return refused
    }

    mutating func parseConstraints(_ definition: inout Definition, _ node: FieldTable) {
        let type = definition.type
        let isNumber = type == .int || type == .double
        if let valuesNode = node[.values] {
            if !(isNumber || type == .string) {
                error(node.key(.values) ?? valuesNode, "`values` applies to int, double and string definitions, not \(type)")
            } else if let items = valuesNode.items, !items.isEmpty {
                var values: [Value] = []
                for item in items {
                    switch Value.from(item, as: type) {
                    case .failure(let problem):
                        error(item, "allowed value of \(definition.key): \(problem.message)", hint: problem.hint)
                    case .success(let value):
                        if values.contains(where: { Definition.sameValue($0, value) }) {
                            error(item, "\(value.plainText) is listed twice in values")
                        } else {
                            values.append(value)
                        }
                    }
                }
                definition.allowedValues = values
            } else {
                error(valuesNode, "values must be a non-empty list, found \(valuesNode.kindDescription)",
                      hint: "for example `values: [newest_first, oldest_first]`")
            }
        }
        for field in [FieldTable.Field.min, .max] {
            guard let bound = node[field] else { continue }
            let name = field == .min ? "min" : "max"
            guard isNumber else {
                error(node.key(field) ?? bound, "`\(name)` applies to int and double definitions, not \(type)")
                continue
            }
            switch Value.from(bound, as: type) {
            case .failure(let problem):
                error(bound, "\(name) of \(definition.key): \(problem.message)", hint: problem.hint)
            case .success(let value):
                if field == .min { definition.minimum = value.doubleValue } else { definition.maximum = value.doubleValue }
            }
        }
        if let minimum = definition.minimum, let maximum = definition.maximum, minimum > maximum, let at = node[.min] {
            error(at, "min \(Definition.format(minimum)) is greater than max \(Definition.format(maximum))",
                  hint: "swap them, or fix the one that is wrong")
            // No value can meet swapped bounds; checking the default against them would only add noise.
            definition.minimum = nil
            definition.maximum = nil
        }
        if let patternNode = node[.pattern] {
            if type != .string {
                error(node.key(.pattern) ?? patternNode, "`pattern` applies to string definitions, not \(type)")
            } else if let pattern = patternNode.scalar?.text {
                if RegularExpression(pattern) != nil {
                    definition.pattern = pattern
                } else {
                    error(patternNode, "invalid regular expression '\(pattern)'",
                          hint: "patterns use ICU syntax, like most regex engines; escape special characters with \\")
                }
            } else {
                error(patternNode, "pattern must be a string, found \(patternNode.kindDescription)")
            }
        }
    }

    mutating func text(_ node: Node?, field: String) -> String? {
        guard let node else { return nil }
        guard let scalar = node.scalar else {
            error(node, "\(field) must be a string, found \(node.kindDescription)")
            return nil
        }
        return scalar.text
    }

    mutating func stringList(_ node: Node?, field: String) -> [String] {
        guard let node else { return [] }
        guard let items = node.items else {
            error(node, "\(field) must be a list of strings, found \(node.kindDescription)",
                  hint: "for example `\(field): [a, b]`")
            return []
        }
        var result: [String] = []
        result.reserveCapacity(items.count)
        for item in items {
            // As `text(_:field:)` does, without writing the field's name for every item.
            guard case .scalar(let scalar) = item.content else {
                error(item, "each of \(field) must be a string, found \(item.kindDescription)")
                continue
            }
            result.append(scalar.text)
        }
        return result
    }

    mutating func day(_ node: Node, key: String, kind: Definition.Kind) -> Day? {
        guard let text = node.scalar?.text, let day = Day(text) else {
            let written = node.scalar?.text ?? node.kindDescription
            error(node, "invalid expires date '\(written)'", hint: "write a real calendar day as YYYY-MM-DD")
            return nil
        }
        if day < today {
            let ago = today.daysSinceEpoch - day.daysSinceEpoch
            diagnostics.append(.warning(
                at: node.location, "\(kind.rawValue) \(key) expired on \(day) (\(ago) day\(ago == 1 ? "" : "s") ago)",
                hint: "remove the \(kind.rawValue) and its uses, or move `expires` later"))
        }
        return day
    }
}

/// A definition's known fields, found in one pass over its pairs: each field's position among the pairs, in a
/// fixed inline array, so looking a field up copies no node and hashes no name. Thousands of definitions go
/// through this on every load.
struct FieldTable {
    /// The known fields, in the order of ``DefinitionParser/definitionFields``.
    enum Field: Int, CaseIterable {
        case type, `default`, description, owner, tags, expires, variants, values, min, max, pattern, renamedFrom,
             rules, rollout, requires, enabled, targeting, bucketing, schedule

        /// The field a name spells, if any (see ``init(bytes:)``).
        init?(name: String) {
            var text = name
            guard let field = text.withUTF8({ Field(bytes: $0) }) else { return nil }
            self = field
        }

        /// The field the UTF-8 bytes of a name spell, if any: a switch on the length and first and last bytes
        /// picks the only candidate, which one comparison confirms. No string is made: every field name of every
        /// plain definition comes here from libyaml's bytes.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 3 else { return nil }
            let candidate: Field? = switch (bytes.count, bytes[0], bytes[bytes.count - 1]) {
            case (4, 0x74, 0x65): .type  // t...e
            case (7, 0x64, 0x74): .default  // d...t
            case (11, 0x64, 0x6E): .description  // d...n
            case (5, 0x6F, 0x72): .owner  // o...r
            case (4, 0x74, 0x73): .tags  // t...s
            case (7, 0x65, 0x73): .expires  // e...s
            case (8, 0x76, 0x73): .variants  // v...s
            case (6, 0x76, 0x73): .values  // v...s
            case (3, 0x6D, 0x6E): .min  // m...n
            case (3, 0x6D, 0x78): .max  // m...x
            case (7, 0x70, 0x6E): .pattern  // p...n
            case (12, 0x72, 0x6D): .renamedFrom  // r...m
            case (5, 0x72, 0x73): .rules  // r...s
            case (7, 0x72, 0x74): .rollout  // r...t
            case (8, 0x72, 0x73): .requires  // r...s
            case (7, 0x65, 0x64): .enabled  // e...d
            case (9, 0x74, 0x67): .targeting  // t...g
            case (9, 0x62, 0x67): .bucketing  // b...g
            case (8, 0x73, 0x65): .schedule  // s...e
            default: nil
            }
            guard let candidate, Self.names[candidate.rawValue].elementsEqual(bytes) else { return nil }
            self = candidate
        }

        /// ``DefinitionParser/definitionFields`` as bytes, in the same order.
        private static let names = DefinitionParser.definitionFields.map { Array($0.utf8) }
    }

    private let pairs: [Node.Pair]
    private var positions = InlineArray<19, Int32>(repeating: -1)

    init(_ pairs: [Node.Pair]) {
        assert(Field.allCases.count == DefinitionParser.definitionFields.count
               && Field.allCases.count == positions.count, "FieldTable.Field and definitionFields disagree")
        self.pairs = pairs
    }

    /// Records where a field is written.
    mutating func set(_ field: Field, position: Int) {
        positions[field.rawValue] = Int32(position)
    }

    /// Forgets a field, as if it were not written.
    mutating func remove(_ field: Field) {
        positions[field.rawValue] = -1
    }

    /// Whether a field is written.
    func has(_ field: Field) -> Bool { positions[field.rawValue] >= 0 }

    /// Whether any targeting field is written (`bucketing` alone has nothing to apply to).
    var hasTargeting: Bool {
        has(.rules) || has(.rollout) || has(.requires) || has(.enabled) || has(.targeting) || has(.schedule)
    }

    /// A field's value.
    subscript(field: Field) -> Node? {
        let position = Int(positions[field.rawValue])
        return position >= 0 ? pairs[position].value : nil
    }

    /// A field's key, for messages about the field itself.
    func key(_ field: Field) -> Node? {
        let position = Int(positions[field.rawValue])
        return position >= 0 ? pairs[position].key : nil
    }
}
