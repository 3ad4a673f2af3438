import YAML

extension Value {
    /// A YAML scalar's value by the core schema: `null`, `true`/`false`, integers and doubles typed, anything else
    /// its text.
    init(scalar: Scalar) {
        switch scalar.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string: self = .string(scalar.text)
        }
    }

    /// Converts a YAML node to a value by the core schema: scalars typed, sequences to lists, mappings to objects.
    init(node: Node) {
        switch node.content {
        case .scalar(let scalar):
            self.init(scalar: scalar)
        case .sequence(let items):
            self = .list(items.map(Value.init(node:)))
        case .mapping(let pairs):
            var members: [String: Value] = [:]
            members.reserveCapacity(pairs.count)
            for pair in pairs { members[pair.key.scalar?.text ?? ""] = Value(node: pair.value) }
            self = .object(members)
        }
    }

    /// Text typed as YAML types a plain (unquoted) scalar: `true`, `42`, `1.5` and `null` are those values,
    /// anything else is the text. What `--context plan=42` and the REPL's `context` command read.
    public init(plainText text: String) {
        self.init(scalar: Scalar(text: text, style: .plain))
    }

    /// Converts a YAML node to a value of a declared type. A `string` keeps any scalar's text exactly as
    /// written (`yes`, `1.10`, `0x1F`); a `double` widens integers. Returns the problem when the node does
    /// not have the type.
    static func from(_ node: Node, as type: ValueType) -> Result<Value, ValueProblem> {
        if let scalar = node.scalar { return from(scalar, as: type) }
        if let problem = keyProblem(in: node) { return .failure(problem) }
        return typed(Value(node: node), as: type)
    }

    /// The first key of an object, at any depth, that a value cannot keep: a list or mapping as a key, or two keys
    /// with the same text (`1` and `"1"`, both the key "1" in JSON). ``init(node:)`` would lose an entry to either.
    static func keyProblem(in node: Node) -> ValueProblem? {
        switch node.content {
        case .scalar:
            return nil
        case .sequence(let items):
            return items.lazy.compactMap(keyProblem(in:)).first
        case .mapping(let pairs):
            var keys = Set<String>()
            for pair in pairs {
                guard let key = pair.key.scalar?.text else {
                    let kind = if case .sequence = pair.key.content { "a list" } else { "a mapping" }
                    return ValueProblem("an object's keys are text, found \(kind) as a key",
                                        hint: "write the key as text, \"key\": value")
                }
                guard keys.insert(key).inserted else {
                    return ValueProblem("the key \(Message.quoted(key)) is written twice in the object",
                                        hint: "an object's keys are text, so 1 and \"1\" are one key; keep one")
                }
                if let problem = keyProblem(in: pair.value) { return problem }
            }
            return nil
        }
    }

    /// Converts the node that starts at event `index` of an entry, as ``from(_:as:)`` converts a node; `nil` when
    /// the node has a tag, a key that is not a scalar, or a key written twice (mistakes only its tree reports).
    static func from(_ entry: SplitEntry, at index: Int, as type: ValueType) -> Result<Value, ValueProblem>? {
        guard !entry.hasTag(at: index) else { return nil }
        if entry.kind(at: index) == .scalar { return from(entry.scalar(at: index), as: type) }
        var end = index
        return Value(entry, at: index, end: &end).map { typed($0, as: type) }
    }

    /// The value of the untagged node at `index`, as ``init(node:)`` gives it, with `end` set past the node.
    private init?(_ entry: SplitEntry, at index: Int, end: inout Int) {
        switch entry.kind(at: index) {
        case .scalar:
            end = index + 1
            self.init(scalar: entry.scalar(at: index))
        case .sequenceStart:
            var items: [Value] = []
            var item = index + 1
            while entry.kind(at: item) != .sequenceEnd {
                guard !entry.hasTag(at: item), let value = Value(entry, at: item, end: &item) else { return nil }
                items.append(value)
            }
            end = item + 1
            self = .list(items)
        case .mappingStart:
            var members: [String: Value] = [:]
            var item = index + 1
            while entry.kind(at: item) != .mappingEnd {
                guard entry.kind(at: item) == .scalar, !entry.hasTag(at: item), !entry.hasTag(at: item + 1) else {
                    return nil
                }
                let key = entry.text(at: item)
                guard members[key] == nil, let value = Value(entry, at: item + 1, end: &item) else { return nil }
                members[key] = value
            }
            end = item + 1
            self = .object(members)
        case .sequenceEnd, .mappingEnd:
            return nil
        }
    }

    /// Converts a scalar to a value of a declared type, as ``from(_:as:)`` converts a node.
    static func from(_ scalar: Scalar, as type: ValueType) -> Result<Value, ValueProblem> {
        guard type == .string else { return typed(Value(scalar: scalar), as: type) }
        if case .null = scalar.value, scalar.style == .plain {
            return .failure(ValueProblem("expected a string, found null",
                                         hint: "quote it (\"\(scalar.text)\") to mean the text"))
        }
        return .success(.string(scalar.text))
    }

    private static func typed(_ value: Value, as type: ValueType) -> Result<Value, ValueProblem> {
        let value = type.widening(value)
        if let problem = Definition.typeProblem(value, expected: type) { return .failure(problem) }
        return .success(value)
    }

    /// Parses text from the command line, the environment or the REPL as a value of a type: `true`/`false`
    /// for bool, core-schema numbers for int and double, the text itself for string, and JSON (or YAML flow
    /// syntax) for list and object.
    public static func parse(_ text: String, as type: ValueType) -> Result<Value, ValueProblem> {
        if type == .string { return .success(.string(text)) }
        let trimmed = text.trimmingWhitespace
        // Nothing typed is not YAML's null: say what is missing (a variable set to nothing, `set KEY ""`).
        if trimmed.isEmpty {
            return .failure(ValueProblem("expected \(type.withArticle), found nothing (the value is empty)",
                                         hint: "give a value, or leave it unset"))
        }
        guard type == .list || type == .object else { return from(Scalar(text: trimmed, style: .plain), as: type) }
        let document = YAMLParser.parse(Array(trimmed.utf8), file: "value")
        guard let root = document.root, document.problems.isEmpty else {
            let detail = document.problems.first?.message ?? "empty value"
            return .failure(ValueProblem("expected \(type.withArticle) in JSON syntax: \(detail)",
                                         hint: type == .list ? "example: [1, 2, 3]" : "example: {\"a\": 1}"))
        }
        return from(root, as: type)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
