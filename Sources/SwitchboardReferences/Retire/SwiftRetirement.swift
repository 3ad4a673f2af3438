import SwiftParser
import SwiftSyntax

/// One pass of rewriting a Swift file so it stops reading a retired key: each read that can go becomes the kept
/// value's literal, and the code around it is simplified where the literal decides it (`if`, `guard`, ternary,
/// a `let` read once). A pass makes the edits that do not overlap; ``Retirement`` runs passes until one changes
/// nothing, so an `if` inside an `if`, or a `let` moved to its use, is settled by the next pass.
struct SwiftRetirement {
    /// The kept value's Swift literal for a read by string, `FlagKey` or `forKey:` (`nil`: not writable).
    var literal: String?
    /// The literal for a read through the generated typed key (`nil` for a value enum, which goes away).
    var typedLiteral: String?
    /// The kept value, when it is a bool: `if` and `guard` conditions fold on it.
    var bool: Bool?

    /// A reference the pass leaves, and why.
    struct Leftover: Hashable {
        var position: SourcePosition
        var reason: String
        /// For a `FlagKey` declaration left in place, the name it is bound to (`newFlow`), whose uses read the key.
        var declaredName: String?
    }

    /// The text after one pass, and the references it could not rewrite.
    struct Pass {
        var text: String
        var changed: Bool
        var leftovers: [Leftover]
        /// Notes on rewrites that need a look (a `guard` that now always exits).
        var notes: [Leftover]
    }

    /// The methods whose unlabeled first argument is read for its value.
    static let valueMethods: Set<String> = ["bool", "int", "double", "string", "value"]
    /// `ConfigReader` reads that return the value itself, not an optional.
    static let requiredConfigMethods: Set<String> = ["requiredBool", "requiredInt", "requiredDouble", "requiredString"]
    /// `ConfigReader` reads that return the value when given a `default:`.
    static let configMethods: Set<String> = ["bool", "int", "double", "string"]

    /// One pass over `text`, for the references to the key that the scan found in it.
    func pass(file: String, text: String, references: [KeyReference]) -> Pass {
        let tree = Parser.parse(source: text)
        let lines = LineTable(text)
        var edits: [TextEdit] = []
        var leftovers: [Leftover] = []
        var notes: [Leftover] = []
        for reference in references {
            let offset = lines.offset(line: reference.position.line, column: reference.position.column)
            guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)) else { continue }
            switch plan(for: reference, at: Syntax(token), offset: offset, lines: lines) {
            case .edits(let planned, let note):
                edits.append(contentsOf: planned)
                if let note { notes.append(Leftover(position: reference.position, reason: note)) }
            case .leave(let reason):
                leftovers.append(Leftover(position: reference.position, reason: reason,
                                          declaredName: Self.boundName(at: Syntax(token), offset: offset)))
            }
        }
        let applied = TextEdit.apply(edits, to: text)
        return Pass(text: applied.text, changed: applied.count > 0, leftovers: leftovers, notes: notes)
    }

    /// The name a `FlagKey(…)` at `offset` is bound to, when it is the whole initial value of a `let` or `var`
    /// (`static let newFlow = FlagKey("checkout.new_flow", default: false)`).
    private static func boundName(at token: Syntax, offset: Int) -> String? {
        var node = token
        while let parent = node.parent, !parent.is(FunctionCallExprSyntax.self) { node = parent }
        guard let call = node.parent?.as(FunctionCallExprSyntax.self), FlagKeyVisitor.isFlagKey(call.calledExpression),
              let binding = call.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self)
        else { return nil }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }

    /// Where `name` is used in `text`: each reference to it by name or as a member (`Keys.newFlow`), the places a
    /// `FlagKey` left in place is read from. By name alone, so a same-named other thing is listed too.
    static func uses(of name: String, file: String, text: String) -> [SourcePosition] {
        final class Finder: SyntaxVisitor {
            let name: String
            let collector: ReferenceCollector
            var found: [SourcePosition] = []
            init(name: String, collector: ReferenceCollector) {
                self.name = name
                self.collector = collector
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
                if node.baseName.text == name { found.append(collector.position(of: node)) }
                return .visitChildren
            }
        }
        let finder = Finder(name: name, collector: ReferenceCollector(file: file, source: text))
        finder.walk(Parser.parse(source: text))
        return finder.found
    }

    /// What to do about one reference.
    private enum Plan {
        case edits([TextEdit], note: String?)
        case leave(String)
    }

    private func plan(for reference: KeyReference, at token: Syntax, offset: Int, lines: LineTable) -> Plan {
        // The key expression: the outermost expression starting at the reference that is still the argument (through
        // the operands of literals joined with `+`, which the parser leaves as a list in a sequence).
        var node = token
        while let parent = node.parent, parent.is(ExprSyntax.self) || parent.is(ExprListSyntax.self),
              !parent.is(FunctionCallExprSyntax.self), parent.positionAfterSkippingLeadingTrivia.utf8Offset == offset
        {
            node = parent
        }
        guard var argument = node.parent?.as(LabeledExprSyntax.self) else {
            return .leave(reference.form == .typed
                ? "names the typed key outside a lookup: remove it by hand"
                : "is not the key of a lookup: remove it by hand")
        }
        // `FlagKey("k", default: …)`: the read, if any, is of the FlagKey.
        if reference.form == .flagkey {
            guard let flagKey = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
                  let outer = flagKey.parent?.as(LabeledExprSyntax.self)
            else { return .leave("declares a FlagKey for the key: remove the declaration and its uses by hand") }
            argument = outer
        }
        if let attribute = argument.parent?.parent?.as(AttributeSyntax.self) {
            return .leave("is the key of the property wrapper @\(attribute.attributeName.trimmedDescription): "
                + "replace the property by hand")
        }
        guard let read = readSite(of: argument, form: reference.form) else {
            let callee = argument.parent?.parent?.as(FunctionCallExprSyntax.self)?
                .calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            return .leave(callee.map { "`\($0)(…)` does not read the value: remove it by hand" }
                ?? "is not the key of a lookup: remove it by hand")
        }
        guard let literal = reference.form == .typed ? typedLiteral : literal else {
            return .leave(reference.form == .typed && literal != nil
                ? "reads a value enum that goes away with the definition: write the kept value by hand"
                : "reads a list or an object: write the kept value by hand")
        }
        return simplify(read, literal: literal, lines: lines)
    }

    /// The expression that reads the value: a lookup call, a subscript, or a `ConfigReader` read with a default.
    private func readSite(of argument: LabeledExprSyntax, form: ReferenceForm) -> ExprSyntax? {
        let container = argument.parent?.parent
        if let subscriptCall = container?.as(SubscriptCallExprSyntax.self), form != .config {
            return ExprSyntax(subscriptCall)
        }
        guard let call = container?.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil
        else { return nil }
        let name = member.declName.baseName.text
        if form == .config {
            let hasDefault = call.arguments.contains { $0.label?.text == "default" }
            return Self.requiredConfigMethods.contains(name) || Self.configMethods.contains(name) && hasDefault
                ? ExprSyntax(call) : nil
        }
        guard Self.valueMethods.contains(name), call.arguments.first?.id == argument.id, argument.label == nil,
              call.trailingClosure == nil
        else { return nil }
        return ExprSyntax(call)
    }

    /// The edits that replace a read by the literal and fold what the literal decides.
    private func simplify(_ read: ExprSyntax, literal: String, lines: LineTable) -> Plan {
        var site = Syntax(read)
        // `try await board.bool(…)`: the literal needs neither.
        while let parent = site.parent, let wrapper = parent.as(AwaitExprSyntax.self)?.expression ?? parent
            .as(TryExprSyntax.self).flatMap({ $0.questionOrExclamationMark == nil ? $0.expression : nil }),
            Syntax(wrapper).id == site.id
        {
            site = parent
        }
        var value = bool
        var text = literal
        if let prefix = site.parent?.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!", let kept = value {
            site = Syntax(prefix)
            value = !kept
            text = String(!kept)
        }
        if let value, let plan = foldCondition(site, value: value, lines: lines) { return plan }
        if let plan = foldTernary(site, lines: lines, literal: text) { return plan }
        if let plan = inlineLet(site, read: read, lines: lines) { return plan }
        return .edits([TextEdit(node: site, replacement: text)], note: nil)
    }

    // MARK: - if and guard

    private func foldCondition(_ site: Syntax, value: Bool, lines: LineTable) -> Plan? {
        guard let element = site.parent?.as(ConditionElementSyntax.self),
              let conditions = element.parent?.as(ConditionElementListSyntax.self)
        else { return nil }
        if let ifExpr = conditions.parent?.as(IfExprSyntax.self) {
            if value, conditions.count > 1 { return .edits([removal(of: element, in: conditions)], note: nil) }
            return foldIf(ifExpr, value: value, lines: lines)
        }
        if let guardStmt = conditions.parent?.as(GuardStmtSyntax.self) {
            if value {
                if conditions.count > 1 { return .edits([removal(of: element, in: conditions)], note: nil) }
                return .edits([TextEdit.removingLines(of: guardStmt, lines: lines)], note: nil)
            }
            return .edits([TextEdit(node: site, replacement: "false")],
                          note: "the guard now always exits: the code after it no longer runs; remove it by hand")
        }
        return nil
    }

    /// A condition element removed with its comma.
    private func removal(of element: ConditionElementSyntax, in conditions: ConditionElementListSyntax) -> TextEdit {
        if element.trailingComma != nil {
            let end = conditions.index(after: conditions.index(of: element)!)
            return TextEdit(start: element.positionAfterSkippingLeadingTrivia.utf8Offset,
                            end: conditions[end].positionAfterSkippingLeadingTrivia.utf8Offset, replacement: "")
        }
        // The last condition: from the comma before it.
        let previous = conditions[conditions.index(before: conditions.index(of: element)!)]
        return TextEdit(start: previous.trailingComma!.position.utf8Offset,
                        end: element.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "")
    }

    private func foldIf(_ ifExpr: IfExprSyntax, value: Bool, lines: LineTable) -> Plan? {
        // An `else if` of another `if`: the kept branch replaces it as that `if`'s else.
        if let outer = ifExpr.parent?.as(IfExprSyntax.self), outer.elseBody.map(Syntax.init)?.id == Syntax(ifExpr).id {
            if value { return .edits([TextEdit(node: ifExpr, replacement: ifExpr.body.trimmedDescription)], note: nil) }
            guard let elseBody = ifExpr.elseBody else {
                return .edits([TextEdit(start: outer.body.endPositionBeforeTrailingTrivia.utf8Offset,
                                        end: ifExpr.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "")],
                              note: nil)
            }
            return .edits([TextEdit(node: ifExpr, replacement: elseBody.trimmedDescription)], note: nil)
        }
        // A statement of its own (not `let x = if …`).
        guard let statement = ifExpr.parent?.as(ExpressionStmtSyntax.self).map(Syntax.init)
            ?? (ifExpr.parent?.is(CodeBlockItemSyntax.self) == true ? Syntax(ifExpr) : nil),
            statement.parent?.is(CodeBlockItemSyntax.self) == true || statement.is(IfExprSyntax.self)
        else { return nil }
        let indent = lines.indentation(at: ifExpr.positionAfterSkippingLeadingTrivia.utf8Offset)
        if value { return .edits([kept(ifExpr.body, replacing: ifExpr, indent: indent, lines: lines)], note: nil) }
        switch ifExpr.elseBody {
        case nil:
            return .edits([TextEdit.removingLines(of: ifExpr, lines: lines)], note: nil)
        case .codeBlock(let block):
            return .edits([kept(block, replacing: ifExpr, indent: indent, lines: lines)], note: nil)
        case .ifExpr(let elseIf):
            return .edits([TextEdit(node: ifExpr, replacement: elseIf.trimmedDescription)], note: nil)
        }
    }

    /// A block's statements in place of `node`, at the node's indentation; inside `do { }` when they declare
    /// names or `defer`, which must stay scoped to the block.
    private func kept(_ block: CodeBlockSyntax, replacing node: some SyntaxProtocol, indent: String,
                      lines: LineTable) -> TextEdit
    {
        let statements = block.statements
        guard let first = statements.first, let last = statements.last else {
            return TextEdit.removingLines(of: node, lines: lines)
        }
        let scoped = statements.contains { item in
            item.item.is(DeclSyntax.self) || item.item.is(DeferStmtSyntax.self)
        }
        if scoped {
            return TextEdit(node: node, replacement: "do " + block.trimmedDescription)
        }
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = last.endPositionBeforeTrailingTrivia.utf8Offset
        let inner = lines.indentation(at: start)
        let body = lines.text(start, end).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { index, line -> String in
                guard index > 0 else { return String(line) }
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return "" }
                return line.hasPrefix(inner) ? indent + line.dropFirst(inner.count) : String(line)
            }
        return TextEdit(node: node, replacement: body.joined(separator: "\n"))
    }

    // MARK: - ternary

    private func foldTernary(_ site: Syntax, lines: LineTable, literal: String) -> Plan? {
        guard let bool, let list = site.parent?.as(ExprListSyntax.self),
              let sequence = list.parent?.as(SequenceExprSyntax.self), list.count == 3,
              list.first.map(Syntax.init)?.id == site.id,
              let ternary = list[list.index(after: list.startIndex)].as(UnresolvedTernaryExprSyntax.self)
        else { return nil }
        let value = literal == "true" ? true : literal == "false" ? false : bool
        let kept = value ? ternary.thenExpression.trimmedDescription : list.last!.trimmedDescription
        return .edits([TextEdit(node: sequence, replacement: kept)], note: nil)
    }

    // MARK: - let read once

    /// `let x = board.bool(key)` with `x` used once after it in the same block: the declaration goes and the read
    /// moves to the use, where the next pass folds it. With no use, the declaration goes.
    private func inlineLet(_ site: Syntax, read: ExprSyntax, lines: LineTable) -> Plan? {
        guard let initializer = site.parent?.as(InitializerClauseSyntax.self),
              let binding = initializer.parent?.as(PatternBindingSyntax.self),
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              binding.accessorBlock == nil,
              let bindings = binding.parent?.as(PatternBindingListSyntax.self), bindings.count == 1,
              let declaration = bindings.parent?.as(VariableDeclSyntax.self),
              declaration.bindingSpecifier.text == "let", declaration.attributes.isEmpty,
              declaration.modifiers.isEmpty,
              let item = declaration.parent?.as(CodeBlockItemSyntax.self),
              let items = item.parent?.as(CodeBlockItemListSyntax.self),
              items.parent?.is(CodeBlockSyntax.self) == true || items.parent?.is(ClosureExprSyntax.self) == true
        else { return nil }
        let after = items[items.index(after: items.index(of: item)!)...]
        let finder = NameUses(name: name)
        for later in after { finder.walk(later) }
        guard !finder.shadowed, finder.uses.count <= 1 else { return nil }
        var edits = [TextEdit.removingLines(of: item, lines: lines)]
        if let use = finder.uses.first {
            edits.append(TextEdit(node: use, replacement: Syntax(site).trimmedDescription))
        }
        return .edits(edits, note: nil)
    }
}

/// The uses of a name, and whether anything declares it again (then uses cannot be told apart).
private final class NameUses: SyntaxVisitor {
    let name: String
    var uses: [DeclReferenceExprSyntax] = []
    var shadowed = false

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name, node.argumentNames == nil, node.parent?.is(MemberAccessExprSyntax.self) != true
            || node.parent?.as(MemberAccessExprSyntax.self)?.base?.id == Syntax(node).id
        {
            uses.append(node)
        }
        return .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        if node.identifier.text == name { shadowed = true }
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == name { shadowed = true }
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        if node.firstName.text == name || node.secondName?.text == name { shadowed = true }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        // `if let x {`: a new `x` bound from the old one.
        if node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name { shadowed = true }
        return .visitChildren
    }
}

/// A replacement of a range of a text's UTF-8 bytes.
struct TextEdit {
    var start: Int
    var end: Int
    var replacement: String

    init(start: Int, end: Int, replacement: String) {
        self.start = start
        self.end = end
        self.replacement = replacement
    }

    /// The node's text, without its trivia, replaced.
    init(node: some SyntaxProtocol, replacement: String) {
        self.init(start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
                  end: node.endPositionBeforeTrailingTrivia.utf8Offset, replacement: replacement)
    }

    /// A statement removed with its whole lines when nothing else is on them.
    static func removingLines(of node: some SyntaxProtocol, lines: LineTable) -> TextEdit {
        let (start, end) = lines.wholeLines(node.positionAfterSkippingLeadingTrivia.utf8Offset,
                                            node.endPositionBeforeTrailingTrivia.utf8Offset)
        return TextEdit(start: start, end: end, replacement: "")
    }

    /// The edits that do not overlap an earlier one (in source order) applied to `text`, and how many.
    static func apply(_ edits: [TextEdit], to text: String) -> (text: String, count: Int) {
        var chosen: [TextEdit] = []
        for edit in edits.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            if let last = chosen.last, edit.start < last.end { continue }
            chosen.append(edit)
        }
        var bytes = Array(text.utf8)
        for edit in chosen.reversed() {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.replacement.utf8))
        }
        return (String(decoding: bytes, as: UTF8.self), chosen.count)
    }
}

/// Lines and columns of a text, in UTF-8 bytes, as ``KeyReference`` positions count them.
struct LineTable {
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        self.starts = starts
    }

    /// The offset of a 1-based line and column.
    func offset(line: Int, column: Int) -> Int {
        starts[min(max(line - 1, 0), starts.count - 1)] + column - 1
    }

    /// The spaces and tabs that start the line holding `offset`.
    func indentation(at offset: Int) -> String {
        var index = lineStart(offset)
        var indent = ""
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            indent.append(Character(UnicodeScalar(bytes[index])))
            index += 1
        }
        return indent
    }

    /// The text between two offsets.
    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func lineStart(_ offset: Int) -> Int {
        var index = offset
        while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    /// The range widened to whole lines (and the line break after) when only blanks share its first and last lines.
    func wholeLines(_ start: Int, _ end: Int) -> (Int, Int) {
        let lineStart = lineStart(start)
        guard bytes[lineStart..<start].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        else { return (start, end) }
        var index = end
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        guard index == bytes.count || bytes[index] == UInt8(ascii: "\n") else { return (start, end) }
        return (lineStart, min(index + 1, bytes.count))
    }
}
