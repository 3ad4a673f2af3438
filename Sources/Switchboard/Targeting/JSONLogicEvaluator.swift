#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One application of a compiled rule: the data its `var`s read and the `fractional` algorithm.
///
/// For a flag evaluation the data is the caller's context, read in place: the reserved keys (`$flagd`,
/// `targetingKey`) are answered on demand instead of copying the attributes into a new dictionary on every
/// evaluation. The fields are flat (not an enum of two kinds of data) so reading one copies nothing else.
struct LogicRun {
    /// Plain data, as `jsonLogic.apply(rule, data)` takes it; unused for a flag evaluation.
    let data: Value
    /// Whether this is a flag evaluation, reading the fields below instead of ``data``.
    let isFlagEvaluation: Bool
    /// The caller's attributes.
    let attributes: [String: Value]
    /// The engine's static attributes, under the caller's.
    let staticAttributes: [String: Value]
    let targetingKey: String?
    let flagKey: String
    /// Unix seconds; `nil` reads the clock, only when a rule asks.
    let timestamp: Int?
    let algorithm: FractionalAlgorithm

    /// A run over plain data.
    init(data: Value, algorithm: FractionalAlgorithm) {
        self.data = data
        isFlagEvaluation = false
        attributes = [:]
        staticAttributes = [:]
        targetingKey = nil
        flagKey = ""
        timestamp = nil
        self.algorithm = algorithm
    }

    /// A run over a flag evaluation's context.
    init(
        context: EvaluationContext, staticAttributes: [String: Value], flagKey: String, timestamp: Int?,
        algorithm: FractionalAlgorithm
    ) {
        data = .null
        isFlagEvaluation = true
        attributes = context.attributes
        self.staticAttributes = staticAttributes
        targetingKey = context.targetingKey
        self.flagKey = flagKey
        self.timestamp = timestamp
        self.algorithm = algorithm
    }

    var now: Int { timestamp ?? Self.clock() }

    /// The wall clock in Unix seconds, as flagd's `$flagd.timestamp`.
    static func clock() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }

    var flagdObject: Value {
        .object(["flagKey": .string(flagKey), "timestamp": .int(now)])
    }

    /// The whole data, for rules that read all of it (`{"var": ""}`).
    var wholeData: Value {
        guard isFlagEvaluation else { return data }
        var object = staticAttributes
        object.merge(attributes) { _, caller in caller }
        if let targetingKey { object["targetingKey"] = .string(targetingKey) }
        object["$flagd"] = flagdObject
        return .object(object)
    }

    static let targetingKeyPath = VariablePath("targetingKey")
    static let flagKeyPath = VariablePath("$flagd.flagKey")

    /// Evaluates a node. `scope` is the item that `map`, `filter` and friends apply their logic to, or `nil`
    /// for the root data.
    func evaluate(_ node: LogicNode, in scope: Value?) throws(JSONLogicError) -> Value {
        switch node {
        case .literal(let value):
            return value
        case .list(let nodes):
            var items: [Value] = []
            items.reserveCapacity(nodes.count)
            for node in nodes { items.append(try evaluate(node, in: scope)) }
            return .list(items)
        case .variable(let path, let fallback):
            if let found = lookup(path, in: scope) { return found }
            return try optional(fallback, in: scope) ?? .null
        case .dynamicVariable(let pathNode, let fallback):
            let path = try optional(pathNode, in: scope) ?? .null
            if let found = lookup(dynamic: path, in: scope) { return found }
            return try optional(fallback, in: scope) ?? .null
        case .conditional(let args):
            // Through the buffer: reading elements in place spares a retain and release of each one visited.
            return try args.withUnsafeBufferPointer { args throws(JSONLogicError) -> Value in
                var index = 0
                while index < args.count - 1 {
                    if JS.truthy(try evaluate(args[index], in: scope)) { return try evaluate(args[index + 1], in: scope) }
                    index += 2
                }
                return index == args.count - 1 ? try evaluate(args[index], in: scope) : .null
            }
        case .and(let args):
            var current = Value.null
            for arg in args {
                current = try evaluate(arg, in: scope)
                if !JS.truthy(current) { return current }
            }
            return current
        case .or(let args):
            var current = Value.null
            for arg in args {
                current = try evaluate(arg, in: scope)
                if JS.truthy(current) { return current }
            }
            return current
        case .not(let arg):
            guard let arg else { return .bool(true) }
            return .bool(!JS.truthy(try evaluate(arg, in: scope)))
        case .truthy(let arg):
            guard let arg else { return .bool(false) }
            return .bool(JS.truthy(try evaluate(arg, in: scope)))
        case .equality(let kind, let lhs, let rhs):
            return .bool(kind.holds(try optional(lhs, in: scope), try optional(rhs, in: scope)))
        case .relation(let kind, let a, let b, let c):
            let l = try optional(a, in: scope)
            let r = try optional(b, in: scope)
            // Only `<` and `<=` take json-logic-js's third, "between" argument.
            guard let c, kind == .less || kind == .lessOrEqual else { return .bool(kind.holds(l, r)) }
            let upper = try evaluate(c, in: scope)
            return .bool(kind.holds(l, r) && kind.holds(r, upper))
        case .arithmetic(let kind, let args):
            return try arithmetic(kind, args, in: scope)
        case .collection(let kind, let args):
            return try collection(kind, args, in: scope)
        case .scoped(let kind, let listNode, let logic, let initial):
            return try scoped(kind, listNode, logic, initial, in: scope)
        case .stringAffix(let isPrefix, let args):
            guard args.count == 2,
                  case .string(let text) = try evaluate(args[0], in: scope),
                  case .string(let affix) = try evaluate(args[1], in: scope)
            else { return .null }
            return .bool(JS.hasAffix(text, affix, isPrefix: isPrefix))
        case .semanticVersion(let comparison):
            return try semanticVersion(comparison, in: scope)
        case .fractional(let args):
            return try fractional(args, in: scope)
        case .fractionalTable(let bucketing, let table, let args):
            return try fractional(bucketing: bucketing, table: table, args: args, in: scope)
        case .failure(let message):
            throw JSONLogicError(message)
        case .attributeTest(let test):
            return apply(test, in: scope)
        case .extended(let operation, let args):
            return try extended(operation, args, in: scope)
        }
    }

    func extended(_ operation: ExtendedOperator, _ args: [LogicNode], in scope: Value?) throws(JSONLogicError) -> Value {
        guard args.count == 2 else { return .null }
        let left = try evaluate(args[0], in: scope)
        switch operation {
        case .matches(let compiled):
            guard case .string(let text) = left else { return .bool(false) }
            if let compiled { return .bool(compiled.matches(text)) }
            let computed = try evaluate(args[1], in: scope)
            guard case .string(let pattern) = computed, let expression = RegularExpression(computed: pattern) else {
                throw JSONLogicError.invalidPattern(computed.stringValue)
            }
            return .bool(expression.matches(text))
        case .before, .after:
            guard let a = Timestamp.seconds(left), let b = Timestamp.seconds(try evaluate(args[1], in: scope)) else {
                return .bool(false)
            }
            if case .before = operation { return .bool(a < b) }
            return .bool(a > b)
        }
    }

    /// An ``AttributeTest``: what the general nodes it stands for give, reading the variable once.
    func apply(_ test: AttributeTest, in scope: Value?) -> Value {
        let found: Value?
        if let attribute = test.attribute, scope == nil, isFlagEvaluation {
            found = attributes[attribute] ?? (staticAttributes.isEmpty ? nil : staticAttributes[attribute])
        } else {
            found = lookup(test.path, in: scope)
        }
        // `var` gives null for a missing variable.
        let value = found ?? .null
        switch test.kind {
        case .equality(let kind, let literal):
            return .bool(kind.holds(value, literal))
        case .relation(let kind, let literal):
            return .bool(kind.holds(value, literal))
        case .presentRelation(let kind, let literal):
            // The `and` gives the first false operand or the last: both are booleans here.
            guard !JS.looseEquals(value, .null) else { return .bool(false) }
            return .bool(kind.holds(value, literal))
        case .affix(let isPrefix, let affix):
            guard case .string(let text) = value else { return .null }
            return .bool(JS.hasAffix(text, affix, isPrefix: isPrefix))
        case .member(let items):
            return .bool(items.contains { JS.strictEquals(value, $0) })
        }
    }

    func optional(_ node: LogicNode?, in scope: Value?) throws(JSONLogicError) -> Value? {
        guard let node else { return nil }
        return try evaluate(node, in: scope)
    }

    // MARK: var

    /// Follows a path; `nil` when a step is missing (json-logic-js's `undefined`, which `var` turns into its
    /// default). A present `null` is returned as `null`.
    func lookup(_ path: VariablePath, in scope: Value?) -> Value? {
        let components = path.components
        var index = 0
        var current: Value
        if let scope {
            current = scope
        } else if !isFlagEvaluation {
            current = data
        } else {
            index = 1
            switch path.root {
            case .flagd:
                // Answer $flagd.flagKey / $flagd.timestamp without building the object.
                guard components.count > 1 else { return flagdObject }
                index = 2
                switch components[1].key {
                case "flagKey": current = .string(flagKey)
                case "timestamp": current = .int(now)
                default: return nil
                }
            case .targetingKey:
                if let targetingKey {
                    current = .string(targetingKey)
                } else {
                    let attribute = attributes["targetingKey"] ?? staticAttributes["targetingKey"]
                    guard let value = attribute else { return nil }
                    current = value
                }
            case .attribute:
                let key = components[0].key
                guard let value = attributes[key] ?? staticAttributes[key] else { return nil }
                current = value
            }
        }
        while index < components.count {
            switch current {
            case .object(let members):
                guard let next = members[components[index].key] else { return nil }
                current = next
            case .list(let items):
                guard let position = components[index].index, position < items.count else { return nil }
                current = items[position]
            default:
                return nil
            }
            index += 1
        }
        return current
    }

    /// `var` with a computed path: `null` or `""` is the whole data, anything else is `String(path)`.
    func lookup(dynamic path: Value, in scope: Value?) -> Value? {
        switch path {
        case .null, .string(""):
            return scope ?? wholeData
        default:
            return lookup(VariablePath(JS.toString(path)), in: scope)
        }
    }

    // MARK: Arithmetic

    private func arithmetic(_ kind: ArithmeticOperator, _ args: [LogicNode], in scope: Value?)
        throws(JSONLogicError) -> Value
    {
        switch kind {
        case .add:
            // json-logic-js: reduce((a, b) => parseFloat(a) + parseFloat(b), 0).
            var sum = 0.0
            for arg in args { sum += JS.parseFloat(try evaluate(arg, in: scope)) }
            return JS.number(sum)
        case .multiply:
            // reduce without an initial value: a TypeError when empty, the lone argument unchanged when single.
            guard let first = args.first else { throw JSONLogicError("'*' needs at least one argument") }
            let firstValue = try evaluate(first, in: scope)
            guard args.count > 1 else { return firstValue }
            var product = JS.parseFloat(firstValue)
            for arg in args.dropFirst() { product *= JS.parseFloat(try evaluate(arg, in: scope)) }
            return JS.number(product)
        case .subtract:
            guard let first = args.first else { return .double(.nan) }
            let a = JS.toNumber(try evaluate(first, in: scope))
            guard args.count > 1 else { return JS.number(-a) }
            return JS.number(a - JS.toNumber(try evaluate(args[1], in: scope)))
        case .divide, .remainder:
            let a = JS.toNumber(try optional(args.first, in: scope))
            let b = JS.toNumber(try optional(args.count > 1 ? args[1] : nil, in: scope))
            return JS.number(kind == .divide ? a / b : a.truncatingRemainder(dividingBy: b))
        case .min, .max:
            var result: Double = kind == .min ? .infinity : -.infinity
            for arg in args {
                let number = JS.toNumber(try evaluate(arg, in: scope))
                if number.isNaN {
                    result = .nan
                } else if !result.isNaN {
                    result = kind == .min ? Swift.min(result, number) : Swift.max(result, number)
                }
            }
            return JS.number(result)
        }
    }

    // MARK: Strings and arrays

    private func collection(_ kind: CollectionOperator, _ args: [LogicNode], in scope: Value?)
        throws(JSONLogicError) -> Value
    {
        switch kind {
        case .cat:
            // Array.prototype.join: null items contribute nothing.
            var text = ""
            for arg in args {
                let value = try evaluate(arg, in: scope)
                switch value {
                case .null: break
                case .string(let part): text += part
                default: text += JS.toString(value)
                }
            }
            return .string(text)
        case .merge:
            var items: [Value] = []
            for arg in args {
                let value = try evaluate(arg, in: scope)
                if case .list(let inner) = value { items.append(contentsOf: inner) } else { items.append(value) }
            }
            return .list(items)
        case .missing:
            var values: [Value] = []
            for arg in args { values.append(try evaluate(arg, in: scope)) }
            if case .list(let keys)? = values.first { values = keys }
            return .list(missing(values, in: scope))
        case .missingSome:
            let need = try optional(args.first, in: scope)
            let options = try optional(args.count > 1 ? args[1] : nil, in: scope) ?? .null
            guard case .list(let keys) = options else { return .list(missing([options], in: scope)) }
            let absent = missing(keys, in: scope)
            return JS.greaterOrEqual(.int(keys.count - absent.count), need) ? .list([]) : .list(absent)
        case .substr:
            let source = try optional(args.first, in: scope).map(JS.toString) ?? "undefined"
            let start = try optional(args.count > 1 ? args[1] : nil, in: scope)
            let length = try optional(args.count > 2 ? args[2] : nil, in: scope)
            return .string(JS.substr(source, start: start, length: length))
        case .in:
            let needle = try optional(args.first, in: scope)
            let haystack = try optional(args.count > 1 ? args[1] : nil, in: scope)
            switch haystack {
            case .string(let text)? where !text.isEmpty:
                return .bool(JS.contains(text, needle.map(JS.toString) ?? "undefined"))
            case .list(let items)?:
                return .bool(items.contains { JS.strictEquals(needle, $0) })
            default:
                return .bool(false)
            }
        case .log:
            return try optional(args.first, in: scope) ?? .null
        }
    }

    /// The keys whose `var` is `null`, `""` or absent.
    private func missing(_ keys: [Value], in scope: Value?) -> [Value] {
        keys.filter { key in
            switch lookup(dynamic: key, in: scope) {
            case nil, .null?, .string("")?: true
            default: false
            }
        }
    }

    // MARK: map, filter, reduce, all, none, some

    private func scoped(
        _ kind: ScopedOperator, _ listNode: LogicNode?, _ logic: LogicNode?, _ initial: LogicNode?,
        in scope: Value?
    ) throws(JSONLogicError) -> Value {
        let data = try optional(listNode, in: scope)
        func apply(_ item: Value) throws(JSONLogicError) -> Value {
            guard let logic else { return .null }
            return try evaluate(logic, in: item)
        }
        guard case .list(let items)? = data else {
            switch kind {
            case .map, .filter: return .list([])
            case .reduce: return try optional(initial, in: scope) ?? .null
            case .all, .some: return .bool(false)
            case .none: return .bool(true)
            }
        }
        switch kind {
        case .map:
            var result: [Value] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try apply(item)) }
            return .list(result)
        case .filter:
            var result: [Value] = []
            for item in items where JS.truthy(try apply(item)) { result.append(item) }
            return .list(result)
        case .reduce:
            var accumulator = try optional(initial, in: scope) ?? .null
            for item in items {
                accumulator = try apply(.object(["current": item, "accumulator": accumulator]))
            }
            return accumulator
        case .all:
            guard !items.isEmpty else { return .bool(false) }
            for item in items where !JS.truthy(try apply(item)) { return .bool(false) }
            return .bool(true)
        case .none:
            for item in items where JS.truthy(try apply(item)) { return .bool(false) }
            return .bool(true)
        case .some:
            for item in items where JS.truthy(try apply(item)) { return .bool(true) }
            return .bool(false)
        }
    }

    // MARK: flagd operations

    /// `sem_ver`: `null` for anything it cannot compare, so the flag falls back to its default variant.
    private func semanticVersion(_ comparison: SemanticVersionComparison, in scope: Value?)
        throws(JSONLogicError) -> Value
    {
        let args = comparison.args
        guard args.count == 3 else { return .null }
        guard let actual = SemanticVersion(value: try evaluate(args[0], in: scope)) else { return .null }
        let op: SemanticVersion.Operator?
        if case .literal = args[1] {
            op = comparison.compiledOperator
        } else {
            op = try evaluate(args[1], in: scope).stringValue.flatMap(SemanticVersion.Operator.init(rawValue:))
        }
        let target: SemanticVersion?
        if case .literal = args[2] {
            target = comparison.compiledTarget
        } else {
            target = SemanticVersion(value: try evaluate(args[2], in: scope))
        }
        guard let op, let target else { return .null }
        return .bool(op.holds(actual, target))
    }
}

extension JSONLogicError {
    /// `matches` without a usable pattern. `computed` is the pattern computed while evaluating, if any: one too
    /// long to compile without leaking gets its own message.
    static func invalidPattern(_ computed: String? = nil) -> JSONLogicError {
        if let computed, RegularExpression.isLong(computed) {
            return JSONLogicError("'matches' takes a computed pattern of at most \(RegularExpression.longestLeakFree) "
                + "UTF-16 units, not \(computed.utf16.count); write a longer pattern literally in the rule")
        }
        return JSONLogicError("'matches' needs a valid regular expression")
    }
}
