package import YAML

/// A JSONLogic rule, compiled once and applied many times.
///
/// Semantics are json-logic-js's (the reference implementation, and what flagd's targeting follows):
/// JavaScript truthiness and coercion, `var` with dotted paths and defaults, and every standard operation
/// (`if`/`?:`, `==`, `===`, `!=`, `!==`, `!`, `!!`, `or`, `and`, `<`, `<=`, `>`, `>=` with the three-argument
/// "between" forms of `<` and `<=`, `max`, `min`, `+`, `-`, `*`, `/`, `%`, `map`, `filter`, `reduce`, `all`,
/// `none`, `some`, `merge`, `in`, `cat`, `substr`, `missing`, `missing_some`, `log`), plus flagd's operations:
/// `fractional`, `sem_ver`, `starts_with` and `ends_with`.
///
/// Compiling never fails: what is wrong with a rule is in ``diagnostics``, and the parts that cannot run
/// (an unknown operation, a `$ref` to a missing evaluator) throw when evaluation reaches them, as in
/// json-logic-js. (A flag whose targeting holds one is rejected as a whole instead, as flagd does: see
/// `FlagdEvaluator`.) flagd's operations given arguments they cannot use return `null`, as flagd's do.
///
/// ```swift
/// let rule = JSONLogic(["if": [["==": [["var": "tier"], "gold"]], "fast", "slow"]])
/// try rule.apply(to: ["tier": "gold"])  // "fast"
/// ```
package struct JSONLogic: Sendable {
    /// The compiled tree.
    let root: LogicNode
    /// Problems found while compiling, in source order; their locations are set when compiled from a ``Node``.
    package let diagnostics: [Diagnostic]
    /// The rule as written, with the evaluators it may refer to: two rules with equal sources behave alike, so a
    /// reload compares sources to tell which definitions' targeting changed.
    package let source: Value

    /// Compiles a rule given as a value. `$ref` objects are replaced by the named entry of `evaluators`
    /// (flagd's `$evaluators`).
    package init(_ rule: Value, evaluators: [String: Value] = [:]) {
        let compiler = LogicCompiler(evaluators: evaluators.mapValues { RuleSource(value: $0) })
        root = compiler.compile(RuleSource(value: rule))
        diagnostics = compiler.diagnostics
        source = evaluators.isEmpty ? rule : .object(["rule": rule, "$evaluators": .object(evaluators)])
    }

    /// Compiles a rule from a parsed YAML or JSON node, so diagnostics carry file, line and column.
    package init(node: Node, evaluators: [String: Node] = [:]) {
        let compiler = LogicCompiler(evaluators: evaluators.mapValues { RuleSource(node: $0) })
        let rule = RuleSource(node: node)
        root = compiler.compile(rule)
        diagnostics = compiler.diagnostics
        source = evaluators.isEmpty ? rule.value
            : .object(["rule": rule.value, "$evaluators": .object(evaluators.mapValues { RuleSource(node: $0).value })])
    }

    /// Compiles a rule without folding attribute tests, as a reference for tests of the folded form.
    init(unspecialized rule: Value) {
        let compiler = LogicCompiler(evaluators: [:], specializes: false)
        root = compiler.compile(RuleSource(value: rule))
        diagnostics = compiler.diagnostics
        source = rule
    }

    init(root: LogicNode, diagnostics: [Diagnostic], source: Value) {
        self.root = root
        self.diagnostics = diagnostics
        self.source = source
    }

    /// Applies the rule to data, as `jsonLogic.apply(rule, data)` does.
    ///
    /// `fractional` reads the flag key from `$flagd.flagKey` and the targeting key from `targetingKey` in the
    /// data, where flagd puts them.
    ///
    /// - Throws: `JSONLogicError` when the rule uses an operation that does not exist, refers to a missing
    ///   evaluator, or calls `*` with no arguments (a TypeError in JavaScript).
    package func apply(to data: Value, fractional: FractionalAlgorithm = .v3) throws(JSONLogicError) -> Value {
        let run = LogicRun(data: data, algorithm: fractional)
        return try run.evaluate(root, in: nil)
    }

    /// Whether applying the rule can read the clock (`$flagd.timestamp`; conservatively yes for computed
    /// variable paths), so the same data can give another answer later.
    package var mayReadClock: Bool { root.mayReadTimestamp }

    /// Whether the rule is a constant (it reads no data), so evaluating it once is enough.
    package var isConstant: Bool {
        if case .literal = root { return true }
        return false
    }
}

/// Why a rule could not be applied.
package struct JSONLogicError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}

// MARK: - Source

/// A rule as written, with locations when it came from a file: what the compiler reads.
struct RuleSource {
    enum Kind {
        case scalar(Value)
        case list([RuleSource])
        case object([Member])
    }

    struct Member {
        var key: String
        var keyLocation: SourceLocation?
        var value: RuleSource
    }

    var kind: Kind
    var location: SourceLocation?

    init(value: Value) {
        location = nil
        switch value {
        case .list(let items): kind = .list(items.map(RuleSource.init(value:)))
        case .object(let members):
            kind = .object(members.keys.sorted().map { key in
                Member(key: key, keyLocation: nil, value: RuleSource(value: members[key]!))
            })
        default: kind = .scalar(value)
        }
    }

    init(node: Node) {
        location = node.location
        switch node.content {
        case .scalar(let scalar): kind = .scalar(Self.value(of: scalar))
        case .sequence(let items): kind = .list(items.map(RuleSource.init(node:)))
        case .mapping(let pairs):
            kind = .object(pairs.map { pair in
                Member(key: pair.key.scalar?.text ?? "", keyLocation: pair.key.location,
                       value: RuleSource(node: pair.value))
            })
        }
    }

    /// A YAML scalar's value: its core-schema type, with string scalars carrying their text.
    static func value(of scalar: Scalar) -> Value {
        switch scalar.value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string: .string(scalar.text)
        }
    }

    /// The rule as plain data.
    var value: Value {
        switch kind {
        case .scalar(let value): value
        case .list(let items): .list(items.map(\.value))
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, $0.value.value) }, uniquingKeysWith: { _, last in last }))
        }
    }

    var listItems: [RuleSource]? {
        if case .list(let items) = kind { return items }
        return nil
    }

    /// A short name of the kind for messages.
    var kindDescription: String {
        switch kind {
        case .scalar(let value):
            switch value {
            case .null: "null"
            case .bool: "a boolean"
            case .int, .double: "a number"
            case .string: "a string"
            default: "a value"
            }
        case .list: "a list"
        case .object: "an object"
        }
    }
}

// MARK: - Compiled tree

/// A compiled rule. Arguments that were not written are `nil`: JavaScript's `undefined`, which some
/// operations treat differently from `null` (`{"<": [-1]}` is false, `{"<": [-1, null]}` is true).
indirect enum LogicNode: Sendable {
    case literal(Value)
    case list([LogicNode])
    /// `var` with a path known when compiling.
    case variable(VariablePath, fallback: LogicNode?)
    /// `var` whose path is computed, or absent (the whole data).
    case dynamicVariable(LogicNode?, fallback: LogicNode?)
    case conditional([LogicNode])
    case and([LogicNode])
    case or([LogicNode])
    case not(LogicNode?)
    case truthy(LogicNode?)
    case equality(EqualityOperator, LogicNode?, LogicNode?)
    case relation(RelationOperator, LogicNode?, LogicNode?, LogicNode?)
    case arithmetic(ArithmeticOperator, [LogicNode])
    case collection(CollectionOperator, [LogicNode])
    case scoped(ScopedOperator, LogicNode?, LogicNode?, LogicNode?)
    case stringAffix(isPrefix: Bool, [LogicNode])
    case semanticVersion(SemanticVersionComparison)
    case fractional([LogicNode])
    /// Switchboard's extensions for its readable rules: `matches` (a regular expression, compiled at load),
    /// `before` and `after` (dates).
    case extended(ExtendedOperator, [LogicNode])
    /// `fractional` whose buckets are all literal: the bucketing value (`nil` for the shorthand form), the
    /// buckets compiled (`nil` when they are invalid, which gives `null`), and the arguments for the rare
    /// case of a bucketing value that computes a list.
    case fractionalTable(bucketing: LogicNode?, table: FractionalTable?, args: [LogicNode])
    /// A test of one attribute against a literal: the shape readable rules compile to, found when compiling so
    /// evaluation visits one node instead of three (or seven) and reads the attribute once.
    case attributeTest(AttributeTest)
    /// Cannot run: applying it throws this message.
    case failure(String)
}

/// `{OP: [{"var": PATH}, LITERAL]}` for the operations readable rules use, evaluated exactly as the general nodes
/// it replaces (the same JavaScript semantics), with the variable looked up once.
final class AttributeTest: Sendable {
    enum Kind: Sendable {
        /// `==`, `===`, `!=`, `!==` with a literal right side.
        case equality(EqualityOperator, Value)
        /// `<`, `<=`, `>`, `>=` with a literal right side.
        case relation(RelationOperator, Value)
        /// `{"and": [{"!=": [x, null]}, {REL: [x, LITERAL]}]}`: present, not null, and related to the literal.
        case presentRelation(RelationOperator, Value)
        /// `starts_with` / `ends_with` with a literal string.
        case affix(isPrefix: Bool, String)
        /// `in` with a literal list.
        case member([Value])
    }

    /// The path as written, to recognize two tests of the same variable.
    let pathText: String
    let path: VariablePath
    /// The attribute's name when the path is a single attribute (the common case, read without walking the path).
    let attribute: String?
    let kind: Kind

    init(pathText: String, path: VariablePath, kind: Kind) {
        self.pathText = pathText
        self.path = path
        attribute = path.root == .attribute && path.components.count == 1 ? path.components[0].key : nil
        self.kind = kind
    }

    /// The test for an operation on compiled arguments, when they have the shape: a `var` with a literal path
    /// not under `$flagd` and no default, and a literal.
    static func make(_ name: String, _ args: [LogicNode]) -> AttributeTest? {
        guard args.count == 2, case .variable(let path, nil) = args[0], path.root != .flagd,
              case .literal(let literal) = args[1]
        else { return nil }
        let text = path.components.map(\.key).joined(separator: ".")
        let kind: Kind
        switch name {
        case "==": kind = .equality(.loose, literal)
        case "===": kind = .equality(.strict, literal)
        case "!=": kind = .equality(.looseNot, literal)
        case "!==": kind = .equality(.strictNot, literal)
        case "<": kind = .relation(.less, literal)
        case "<=": kind = .relation(.lessOrEqual, literal)
        case ">": kind = .relation(.greater, literal)
        case ">=": kind = .relation(.greaterOrEqual, literal)
        case "starts_with", "ends_with":
            guard case .string(let affix) = literal else { return nil }
            kind = .affix(isPrefix: name == "starts_with", affix)
        case "in":
            guard case .list(let items) = literal else { return nil }
            kind = .member(items)
        default:
            return nil
        }
        return AttributeTest(pathText: text, path: path, kind: kind)
    }

    /// `{"and": [x != null, x REL literal]}` as one test.
    static func merge(_ args: [LogicNode]) -> AttributeTest? {
        guard args.count == 2, case .attributeTest(let present) = args[0], case .attributeTest(let relation) = args[1],
              case .equality(.looseNot, .null) = present.kind, case .relation(let op, let literal) = relation.kind,
              present.pathText == relation.pathText
        else { return nil }
        return AttributeTest(pathText: present.pathText, path: present.path, kind: .presentRelation(op, literal))
    }
}

extension LogicNode {
    /// The nodes below this one (for analyses at load time; it allocates).
    var children: [LogicNode] {
        switch self {
        case .literal, .failure, .attributeTest:
            return []
        case .variable(_, let fallback):
            return [fallback].compactMap { $0 }
        case .dynamicVariable(let path, let fallback):
            return [path, fallback].compactMap { $0 }
        case .list(let nodes), .conditional(let nodes), .and(let nodes), .or(let nodes), .arithmetic(_, let nodes),
             .collection(_, let nodes), .stringAffix(_, let nodes),
             .fractional(let nodes), .fractionalTable(_, _, let nodes), .extended(_, let nodes):
            return nodes
        case .semanticVersion(let comparison):
            return comparison.args
        case .not(let arg), .truthy(let arg):
            return [arg].compactMap { $0 }
        case .equality(_, let a, let b):
            return [a, b].compactMap { $0 }
        case .relation(_, let a, let b, let c), .scoped(_, let a, let b, let c):
            return [a, b, c].compactMap { $0 }
        }
    }

    /// The message of the first part that cannot run (an unknown operation, a missing evaluator), if any.
    var failureMessage: String? {
        if case .failure(let message) = self { return message }
        for child in children {
            if let message = child.failureMessage { return message }
        }
        return nil
    }

    /// Whether evaluating can read `$flagd.timestamp` (conservatively yes for computed paths), so a flag
    /// evaluation reads the clock once, up front, only for rules that need it.
    var mayReadTimestamp: Bool {
        switch self {
        case .variable(let path, _)
            where path.root == .flagd && (path.components.count == 1 || path.components[1].key == "timestamp"):
            return true
        case .dynamicVariable, .collection(.missing, _), .collection(.missingSome, _):
            return true
        default:
            return children.contains { $0.mayReadTimestamp }
        }
    }
}

/// A `sem_ver` with its literal operator and target version parsed once. A class, so evaluating reads the
/// parts through one reference instead of copying them out of the enum.
final class SemanticVersionComparison: Sendable {
    let args: [LogicNode]
    /// The operator, when written literally (`nil` if that literal is not an operator).
    let compiledOperator: SemanticVersion.Operator?
    /// The version compared with, when written literally (`nil` if that literal is not a version).
    let compiledTarget: SemanticVersion?

    init(args: [LogicNode], compiledOperator: SemanticVersion.Operator?, compiledTarget: SemanticVersion?) {
        self.args = args
        self.compiledOperator = compiledOperator
        self.compiledTarget = compiledTarget
    }
}

enum EqualityOperator: Sendable {
    case loose, strict, looseNot, strictNot

    /// Whether `lhs OP rhs` holds, in JavaScript's terms (`nil` is `undefined`).
    func holds(_ lhs: Value?, _ rhs: Value?) -> Bool {
        switch self {
        case .loose: JS.looseEquals(lhs, rhs)
        case .looseNot: !JS.looseEquals(lhs, rhs)
        case .strict: JS.strictEquals(lhs, rhs)
        case .strictNot: !JS.strictEquals(lhs, rhs)
        }
    }
}

enum RelationOperator: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual

    /// Whether `lhs OP rhs` holds, in JavaScript's terms (`nil` is `undefined`).
    func holds(_ lhs: Value?, _ rhs: Value?) -> Bool {
        switch self {
        case .less: JS.lessThan(lhs, rhs)
        case .lessOrEqual: JS.lessOrEqual(lhs, rhs)
        case .greater: JS.greaterThan(lhs, rhs)
        case .greaterOrEqual: JS.greaterOrEqual(lhs, rhs)
        }
    }
}

enum ArithmeticOperator: Sendable {
    case add, subtract, multiply, divide, remainder, min, max
}

enum CollectionOperator: Sendable {
    case cat, merge, missing, missingSome, substr, `in`, log
}

enum ScopedOperator: Sendable {
    case map, filter, reduce, all, none, some
}

/// Operations Switchboard adds to JSONLogic for its readable rules (flagd has none of them).
enum ExtendedOperator: Sendable {
    /// `{"matches": [string, pattern]}`: whether the string contains a match of the regular expression.
    case matches(RegularExpression?)
    /// `{"before": [date, date]}`: dates as ISO 8601 text (`2026-12-01`, `2026-12-01T10:00:00Z`) or Unix seconds.
    case before
    /// `{"after": [date, date]}`.
    case after
}

/// A dotted `var` path split once at compile time.
struct VariablePath: Sendable {
    struct Component: Sendable {
        var key: String
        /// The key as an array index, when it is one in JavaScript's sense (a canonical non-negative integer).
        var index: Int?
    }

    /// What the first component names in a flag evaluation's data, decided once instead of per lookup.
    enum Root: Sendable {
        /// `$flagd`, answered by the evaluation.
        case flagd
        /// `targetingKey`, answered from the context's targeting key when it has one.
        case targetingKey
        /// An attribute.
        case attribute
    }

    var components: [Component]
    var root: Root

    init(_ path: String) {
        components = path.split(separator: ".", omittingEmptySubsequences: false).map { part in
            let key = String(part)
            let index = Int(key).flatMap { $0 >= 0 && String($0) == key ? $0 : nil }
            return Component(key: key, index: index)
        }
        root = switch components[0].key {
        case "$flagd": .flagd
        case "targetingKey": .targetingKey
        default: .attribute
        }
    }
}

// MARK: - Compiler

/// Turns rule sources into ``LogicNode``s and reports what is statically wrong.
final class LogicCompiler {
    private(set) var diagnostics: [Diagnostic] = []
    private let evaluators: [String: RuleSource]
    private var compiledEvaluators: [String: LogicNode] = [:]
    private var evaluatorsInProgress: [String] = []

    /// Whether to fold attribute tests into ``AttributeTest`` nodes; off only to check that folding changes nothing.
    private let specializes: Bool

    init(evaluators: [String: RuleSource], specializes: Bool = true) {
        self.evaluators = evaluators
        self.specializes = specializes
    }

    /// The evaluators as written, for `JSONLogic/source`.
    private(set) lazy var evaluatorSource: Value = .object(evaluators.mapValues(\.value))

    private func error(_ location: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(.error(at: location, message, hint: hint))
    }

    private func warning(_ location: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(.warning(at: location, message, hint: hint))
    }

    /// Compiles every evaluator, so problems in one are reported once, at its own place, even when unused.
    func compileAllEvaluators() {
        for name in evaluators.keys.sorted() { _ = evaluator(named: name, at: nil) }
    }

    private func evaluator(named name: String, at location: SourceLocation?) -> LogicNode {
        if let compiled = compiledEvaluators[name] { return compiled }
        if evaluatorsInProgress.contains(name) {
            let cycle = (evaluatorsInProgress.drop { $0 != name } + [name]).joined(separator: " → ")
            error(location, "evaluator '\(name)' refers to itself (\(cycle))",
                  hint: "break the cycle; an evaluator cannot contain itself")
            return .failure("evaluator '\(name)' refers to itself")
        }
        guard let source = evaluators[name] else {
            let known = evaluators.keys.sorted()
            error(location, "$ref to evaluator '\(name)', which is not defined in $evaluators",
                  hint: Self.suggestion(for: name, among: known)
                      ?? (known.isEmpty ? "add it under a top-level $evaluators key"
                                        : "defined evaluators: \(known.joined(separator: ", "))"))
            return .failure("evaluator '\(name)' is not defined")
        }
        evaluatorsInProgress.append(name)
        let compiled = compile(source)
        evaluatorsInProgress.removeLast()
        compiledEvaluators[name] = compiled
        return compiled
    }

    func compile(_ source: RuleSource) -> LogicNode {
        switch source.kind {
        case .scalar(let value):
            return .literal(value)
        case .list(let items):
            let nodes = items.map(compile)
            var values: [Value] = []
            values.reserveCapacity(nodes.count)
            for node in nodes {
                guard case .literal(let value) = node else { return .list(nodes) }
                values.append(value)
            }
            return .literal(.list(values))
        case .object(let members):
            guard members.count == 1, let member = members.first else {
                if members.count > 1 {
                    warning(source.location,
                            "an object with \(members.count) keys is data, not an operation",
                            hint: "an operation is an object with exactly one key, such as {\"==\": [a, b]}")
                }
                return .literal(source.value)
            }
            return compileOperation(member, object: source)
        }
    }

    private func compileOperation(_ member: RuleSource.Member, object: RuleSource) -> LogicNode {
        let name = member.key
        let location = member.keyLocation ?? object.location
        if name == "$ref" {
            guard case .scalar(.string(let target)) = member.value.kind else {
                error(member.value.location ?? location,
                      "$ref takes the name of an evaluator, not \(member.value.kindDescription)")
                return .failure("$ref takes the name of an evaluator")
            }
            return evaluator(named: target, at: member.value.location ?? location)
        }
        let sources = member.value.listItems ?? [member.value]
        guard let spec = Self.operations[name] else {
            error(location, "unknown operation '\(name)'",
                  hint: Self.suggestion(for: name, among: Self.operations.keys.sorted())
                      ?? "operations are the JSONLogic ones and flagd's fractional, sem_ver, starts_with, ends_with")
            return .failure("unknown operation '\(name)'")
        }
        if sources.count < spec.arity.lowerBound || sources.count > spec.arity.upperBound {
            error(location, "'\(name)' takes \(Self.describe(spec.arity)), not \(sources.count)",
                  hint: spec.usage)
        }
        // Scoped logic (the second argument of map, filter, ...) is compiled like any other argument:
        // it is simply applied to each item instead of to the data.
        let args = sources.map(compile)
        func arg(_ index: Int) -> LogicNode? { index < args.count ? args[index] : nil }
        if specializes, let test = name == "and" ? AttributeTest.merge(args) : AttributeTest.make(name, args) {
            return .attributeTest(test)
        }

        switch name {
        case "var": return compileVariable(args)
        case "if", "?:": return .conditional(args)
        case "and": return .and(args)
        case "or": return .or(args)
        case "!": return .not(arg(0))
        case "!!": return .truthy(arg(0))
        case "==": return .equality(.loose, arg(0), arg(1))
        case "===": return .equality(.strict, arg(0), arg(1))
        case "!=": return .equality(.looseNot, arg(0), arg(1))
        case "!==": return .equality(.strictNot, arg(0), arg(1))
        // json-logic-js gives only < and <= a third "between" argument; > and >= ignore it.
        case "<": return .relation(.less, arg(0), arg(1), arg(2))
        case "<=": return .relation(.lessOrEqual, arg(0), arg(1), arg(2))
        case ">": return .relation(.greater, arg(0), arg(1), nil)
        case ">=": return .relation(.greaterOrEqual, arg(0), arg(1), nil)
        case "+": return .arithmetic(.add, args)
        case "-": return .arithmetic(.subtract, args)
        case "*": return .arithmetic(.multiply, args)
        case "/": return .arithmetic(.divide, args)
        case "%": return .arithmetic(.remainder, args)
        case "min": return .arithmetic(.min, args)
        case "max": return .arithmetic(.max, args)
        case "cat": return .collection(.cat, args)
        case "merge": return .collection(.merge, args)
        case "missing": return .collection(.missing, args)
        case "missing_some": return .collection(.missingSome, args)
        case "substr": return .collection(.substr, args)
        case "in": return .collection(.in, args)
        case "log": return .collection(.log, args)
        case "map": return .scoped(.map, arg(0), arg(1), nil)
        case "filter": return .scoped(.filter, arg(0), arg(1), nil)
        case "reduce": return .scoped(.reduce, arg(0), arg(1), arg(2))
        case "all": return .scoped(.all, arg(0), arg(1), nil)
        case "none": return .scoped(.none, arg(0), arg(1), nil)
        case "some": return .scoped(.some, arg(0), arg(1), nil)
        case "starts_with", "ends_with":
            for (index, node) in args.enumerated() {
                if case .literal(let value) = node, value.stringValue == nil {
                    error(sources[index].location ?? location,
                          "'\(name)' compares strings; \(sources[index].kindDescription) always gives null")
                }
            }
            return .stringAffix(isPrefix: name == "starts_with", args)
        case "sem_ver": return compileSemanticVersion(args, sources: sources, location: location)
        case "matches":
            var expression: RegularExpression?
            if args.count == 2, case .literal(let value) = args[1] {
                guard let pattern = value.stringValue, let compiled = RegularExpression(pattern) else {
                    error(sources[1].location ?? location, JSONLogicError.invalidPattern().message)
                    return .failure("invalid regular expression")
                }
                expression = compiled
            }
            return .extended(.matches(expression), args)
        case "before": return .extended(.before, args)
        case "after": return .extended(.after, args)
        case "fractional": return compileFractional(args, sources: sources, location: location)
        default: return .failure("unknown operation '\(name)'")
        }
    }

    private func compileVariable(_ args: [LogicNode]) -> LogicNode {
        let fallback = args.count > 1 ? args[1] : nil
        guard let first = args.first else { return .dynamicVariable(nil, fallback: fallback) }
        switch first {
        case .literal(.null), .literal(.string("")):
            return .dynamicVariable(nil, fallback: fallback)
        case .literal(let path):
            // json-logic-js takes String(path), so a number path like 0 indexes an array.
            return .variable(VariablePath(JS.toString(path)), fallback: fallback)
        default:
            return .dynamicVariable(first, fallback: fallback)
        }
    }

    private func compileSemanticVersion(_ args: [LogicNode], sources: [RuleSource], location: SourceLocation?)
        -> LogicNode
    {
        var compiledOperator: SemanticVersion.Operator?
        var compiledTarget: SemanticVersion?
        if args.count > 1, case .literal(let value) = args[1] {
            compiledOperator = value.stringValue.flatMap(SemanticVersion.Operator.init(rawValue:))
            if compiledOperator == nil {
                let operators = SemanticVersion.Operator.allCases.map(\.rawValue).joined(separator: " ")
                error(sources[1].location ?? location, "unknown sem_ver operator \(value)",
                      hint: "use one of \(operators)")
            }
        }
        for index in [0, 2] where index < args.count {
            guard case .literal(let value) = args[index] else { continue }
            let version = SemanticVersion(value: value)
            if version == nil {
                error(sources[index].location ?? location, "\(value) is not a semantic version",
                      hint: "write MAJOR.MINOR.PATCH, for example \"1.4.0\"")
            }
            if index == 2 { compiledTarget = version }
        }
        return .semanticVersion(SemanticVersionComparison(
            args: args, compiledOperator: compiledOperator, compiledTarget: compiledTarget))
    }

    private func compileFractional(_ args: [LogicNode], sources: [RuleSource], location: SourceLocation?)
        -> LogicNode
    {
        // A first argument that is a list is a bucket (the targeting key is the bucketing value).
        guard let first = sources.first else { return .fractional(args) }
        let bucketStart = first.listItems == nil ? 1 : 0
        var total: Int64 = 0
        var allWeightsKnown = true
        for index in bucketStart..<sources.count {
            guard let items = sources[index].listItems else {
                if case .object = sources[index].kind { allWeightsKnown = false; continue }
                error(sources[index].location ?? location,
                      "a fractional bucket is a list [variant, weight], not \(sources[index].kindDescription)")
                continue
            }
            guard let nameSource = items.first else {
                error(sources[index].location ?? location, "an empty fractional bucket",
                      hint: "write [variant, weight], or [variant] for a weight of 1")
                continue
            }
            if case .list = nameSource.kind {
                error(nameSource.location ?? location, "a fractional bucket's variant cannot be a list")
            }
            guard items.count > 1 else { total += 1; continue }
            switch items[1].kind {
            case .scalar(let weight):
                guard let number = weight.doubleValue else {
                    error(items[1].location ?? location, "a fractional weight is a number, not \(weight)")
                    continue
                }
                guard number.isFinite, number == number.rounded(.towardZero) else {
                    error(items[1].location ?? location, "fractional weights are whole numbers, not \(weight)")
                    continue
                }
                if number < 0 {
                    warning(items[1].location ?? location, "a negative fractional weight counts as 0")
                } else {
                    // Counted up to just past the allowed sum, which is refused below: no weight can overflow it.
                    total = min(total + Int64(min(number, Double(Int32.max) + 1)), Int64(Int32.max) + 1)
                }
            default:
                allWeightsKnown = false
            }
        }
        if bucketStart == 1 && sources.count == 1 {
            error(location, "fractional has a bucketing value but no buckets", hint: "add [variant, weight] lists")
        } else if allWeightsKnown && total == 0 && sources.count > bucketStart {
            warning(location, "every fractional weight is 0, so it always gives null (the default variant)")
        }
        if total > Int64(Int32.max) {
            error(location, "fractional weights add up to more than the allowed \(Int32.max)")
        }
        var buckets: [Value] = []
        for node in args[bucketStart...] {
            guard case .literal(let bucket) = node else { return .fractional(args) }
            buckets.append(bucket)
        }
        return .fractionalTable(bucketing: bucketStart == 1 ? args[0] : nil, table: FractionalTable(buckets: buckets),
                                args: args)
    }

    /// The operations and how many arguments each takes.
    struct OperationSpec {
        var arity: ClosedRange<Int>
        var usage: String?
    }

    static let operations: [String: OperationSpec] = {
        let any = 0...Int.max
        let some = 1...Int.max
        var table: [String: OperationSpec] = [:]
        for name in ["if", "?:", "cat", "merge", "missing", "+"] { table[name] = OperationSpec(arity: any) }
        for name in ["and", "or", "min", "max", "*"] { table[name] = OperationSpec(arity: some) }
        for name in ["==", "===", "!=", "!==", ">", ">=", "/", "%", "in"] {
            table[name] = OperationSpec(arity: 2...2)
        }
        for name in ["<", "<="] {
            table[name] = OperationSpec(arity: 2...3, usage: "[a, b] compares; [a, b, c] tests that b is between")
        }
        for name in ["!", "!!", "log"] { table[name] = OperationSpec(arity: 1...1) }
        for name in ["map", "filter", "all", "none", "some"] {
            table[name] = OperationSpec(arity: 2...2, usage: "[list, logic applied to each item]")
        }
        table["var"] = OperationSpec(arity: 0...2, usage: "[path] or [path, default]")
        table["-"] = OperationSpec(arity: 1...2)
        table["reduce"] = OperationSpec(arity: 2...3, usage: "[list, logic, initial accumulator]")
        table["missing_some"] = OperationSpec(arity: 2...2, usage: "[how many are needed, [keys]]")
        table["substr"] = OperationSpec(arity: 2...3, usage: "[string, start] or [string, start, length]")
        table["starts_with"] = OperationSpec(arity: 2...2, usage: "[string, prefix]")
        table["ends_with"] = OperationSpec(arity: 2...2, usage: "[string, suffix]")
        table["sem_ver"] = OperationSpec(
            arity: 3...3, usage: "[version, operator, version], e.g. [{\"var\": \"v\"}, \">=\", \"1.2.0\"]")
        table["fractional"] = OperationSpec(arity: some, usage: "[bucketing value, [variant, weight], ...]")
        table["matches"] = OperationSpec(arity: 2...2, usage: "[string, regular expression]")
        table["before"] = OperationSpec(arity: 2...2, usage: "[date, date]")
        table["after"] = OperationSpec(arity: 2...2, usage: "[date, date]")
        return table
    }()

    private static func describe(_ arity: ClosedRange<Int>) -> String {
        if arity.upperBound == Int.max {
            return "at least \(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
        }
        if arity.lowerBound == arity.upperBound {
            return "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
        }
        return "\(arity.lowerBound) to \(arity.upperBound) arguments"
    }
}

extension LogicCompiler {
    /// "did you mean 'x'?" when a name is one or two edits from a known one.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let best = candidates.map { ($0, Suggestions.editDistance(name, $0)) }.filter { $0.1 <= 2 && $0.1 < name.count }
            .min { $0.1 < $1.1 }
        return best.map { "did you mean '\($0.0)'?" }
    }
}
