import YAML

extension DefinitionParser {
    /// Appends the definition an entry of `flags:` or `preferences:` gives, read from its events without building a
    /// node, when the entry is plain: fields without tags, anchors or keys written twice, no targeting, and nothing
    /// that ``parseDefinition(_:kind:namespace:)`` would report (not even a warning). `false`, having appended
    /// nothing, for any other entry: the caller builds its nodes and reads it with
    /// ``parseDefinition(_:kind:namespace:)``, which reports what is wrong. Most definitions are plain, and the nodes
    /// cost as much as libyaml's scan of them.
    ///
    /// Every check here is the one ``parseDefinition(_:kind:namespace:)`` makes, in the same order, through the
    /// same conversions, so a plain entry gives the same definition either way; a test holds the two to that.
    mutating func appendPlainDefinition(_ entry: SplitEntry, kind: Definition.Kind, namespace: String?) -> Bool {
        // The key, then a mapping of fields; the tree's reader takes any untagged scalar as a name.
        guard entry.count >= 3, entry.kind(at: 0) == .scalar, !entry.hasTag(at: 0),
              entry.kind(at: 1) == .mappingStart, !entry.hasTag(at: 1)
        else { return false }
        let localKey = entry.text(at: 0)
        guard KeySyntax.isValid(localKey) else { return false }
        // Where each field's value starts; a field written twice is YAML's mistake to report.
        var fields = InlineArray<19, Int32>(repeating: -1)
        var index = 2
        while index < entry.count, entry.kind(at: index) != .mappingEnd {
            guard entry.kind(at: index) == .scalar, !entry.hasTag(at: index),
                  let field = FieldTable.Field(bytes: entry.scalarBytes(at: index)), !field.isTargeting,
                  fields[field.rawValue] < 0
            else { return false }
            fields[field.rawValue] = Int32(index + 1)
            index = entry.end(ofNodeAt: index + 1)
        }
        func position(_ field: FieldTable.Field) -> Int? {
            let position = Int(fields[field.rawValue])
            return position >= 0 ? position : nil
        }
        func scalar(_ position: Int) -> Scalar? { entry.untaggedScalar(at: position) }
        /// The untagged scalars of the sequence at `position`, or `nil`.
        func scalars(_ position: Int) -> [String]? {
            guard entry.kind(at: position) == .sequenceStart, !entry.hasTag(at: position) else { return nil }
            var items: [String] = []
            var item = position + 1
            while entry.kind(at: item) != .sequenceEnd {
                guard entry.kind(at: item) == .scalar, !entry.hasTag(at: item) else { return nil }
                items.append(entry.text(at: item))
                item += 1
            }
            return items
        }

        guard let typeAt = position(.type), let typeName = scalar(typeAt)?.text,
              let type = ValueType(rawValue: typeName)
        else { return false }
        // The fields that need no definition to check, first: the definition is then made once, whole.
        var description: String?
        if let at = position(.description) {
            guard let text = scalar(at)?.text else { return false }
            description = text
        }
        var owner: String?
        if let at = position(.owner) {
            guard let text = scalar(at)?.text else { return false }
            owner = text
        }
        var tags: [String] = []
        if let at = position(.tags) {
            guard let list = scalars(at) else { return false }
            tags = list
        }
        var expires: Day?
        if let at = position(.expires) {
            // An expired day is a warning: the tree's reader reports it.
            guard let text = scalar(at)?.text, let day = Day(text), !(day < today) else { return false }
            expires = day
        }
        var renamedFrom: [String] = []
        if let at = position(.renamedFrom) {
            guard let names = scalar(at).map({ [$0.text] }) ?? scalars(at), names.allSatisfy(KeySyntax.isValid)
            else { return false }
            renamedFrom = names
        }
        guard position(.variants) == nil || position(.values) == nil else { return false }
        // As `parseConstraints`.
        let isNumber = type == .int || type == .double
        var allowedValues: [Value]?
        if let at = position(.values) {
            guard isNumber || type == .string, entry.kind(at: at) == .sequenceStart, !entry.hasTag(at: at),
                  entry.kind(at: at + 1) != .sequenceEnd
            else { return false }
            var values: [Value] = []
            var item = at + 1
            while entry.kind(at: item) != .sequenceEnd {
                guard let written = scalar(item), case .success(let value) = Value.from(written, as: type),
                      !values.contains(where: { Definition.sameValue($0, value) })
                else { return false }
                values.append(value)
                item += 1
            }
            allowedValues = values
        }
        /// A bound as a number: `.some(nil)` when the field is not written, `nil` when it is wrong.
        func bound(_ field: FieldTable.Field) -> Double?? {
            guard let at = position(field) else { return .some(nil) }
            guard isNumber, let written = scalar(at), case .success(let value) = Value.from(written, as: type)
            else { return nil }
            return value.doubleValue
        }
        guard let minimum = bound(.min), let maximum = bound(.max) else { return false }
        if let minimum, let maximum, minimum > maximum { return false }
        var pattern: String?
        if let at = position(.pattern) {
            guard type == .string, let written = scalar(at)?.text, RegularExpression(written) != nil else {
                return false
            }
            pattern = written
        }
        // Made in its place at the end of the definitions and finished there: a definition made in a local and
        // returned was copied whole twice (a reference count per field each time, 2% of a load).
        let (variantsAt, defaultAt) = (position(.variants), position(.default))
        return append(Definition(
            key: Self.fullKey(localKey, namespace: namespace), kind: kind, type: type, defaultValue: .null,
            description: description, owner: owner, tags: tags, expires: expires, allowedValues: allowedValues,
            minimum: minimum, maximum: maximum, pattern: pattern, renamedFrom: renamedFrom,
            location: entry.location(at: 0))
        ) { Self.finishPlain(&$0, entry, variantsAt: variantsAt, defaultAt: defaultAt) }
    }

    /// Reads a plain entry's variants (at `variantsAt`) and default (at `defaultAt`) into `definition`, which has
    /// every other field; `false` when they are not plain.
    private static func finishPlain(_ definition: inout Definition, _ entry: SplitEntry, variantsAt: Int?,
                                    defaultAt: Int?) -> Bool {
        let type = definition.type
        // As `parseVariants`.
        if let at = variantsAt {
            guard entry.kind(at: at) == .mappingStart, !entry.hasTag(at: at), entry.kind(at: at + 1) != .mappingEnd
            else { return false }
            var item = at + 1
            while entry.kind(at: item) != .mappingEnd {
                guard let name = entry.untaggedScalar(at: item)?.text, !name.isEmpty,
                      !definition.variants.contains(where: { $0.name == name }),
                      case .success(let value) = Value.from(entry, at: item + 1, as: type),
                      definition.constraintProblem(with: value, checkingVariants: false) == nil
                else { return false }
                // Not `||`: its right side is a closure, and capturing the definition copied it whole.
                if value.doubleValue?.isFinite == false, definition.problem(with: value) != nil { return false }
                definition.variants.append(.init(name: name, value: value, location: entry.location(at: item)))
                item = entry.end(ofNodeAt: item + 1)
            }
        }
        // As `parseDefault`.
        guard let defaultAt else { return false }
        definition.defaultLocation = entry.location(at: defaultAt)
        if !definition.variants.isEmpty {
            guard let name = entry.untaggedScalar(at: defaultAt)?.text, let value = definition.value(ofVariant: name)
            else { return false }
            definition.defaultVariant = name
            definition.defaultValue = value
        } else {
            guard case .success(let value) = Value.from(entry, at: defaultAt, as: type),
                  definition.problem(with: value) == nil
            else { return false }
            definition.defaultValue = value
        }
        return true
    }
}

extension FieldTable.Field {
    /// Whether the field is part of targeting (or, like `bucketing`, only means something with it): such a
    /// definition keeps nodes for the targeting compiler.
    var isTargeting: Bool {
        switch self {
        case .rules, .rollout, .requires, .enabled, .targeting, .bucketing, .schedule: true
        default: false
        }
    }
}

extension SplitEntry {
    /// The untagged scalar at `position`, or `nil`.
    func untaggedScalar(at position: Int) -> Scalar? {
        kind(at: position) == .scalar && !hasTag(at: position) ? scalar(at: position) : nil
    }
}
