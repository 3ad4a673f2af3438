import SwiftSyntax

/// Finds string keys passed to the library's lookups and writes: the unlabeled first argument of `bool`, `int`,
/// `double`, `string`, `list`, `object`, `value`, `details`, `resolve`, `explain`, `observe`, `set` and `reset`,
/// and `of:` of `updates` and `detailedUpdates`, on any receiver that is a value.
///
/// A call on a type or an implicit member (`Value.string("x")`, `.bool(true)`) builds an enum case, not a read,
/// and is left alone.
final class StringKeyVisitor: SyntaxVisitor {
    /// The methods whose unlabeled first argument is a key.
    static let unlabeledKeyMethods: Set<String> = [
        "bool", "int", "double", "string", "list", "object", "value", "details", "resolve", "explain", "observe",
        "set", "reset",
    ]
    /// The methods whose `of:` argument is a key.
    static let ofKeyMethods: Set<String> = ["updates", "detailedUpdates"]

    private let collector: ReferenceCollector

    /// A visitor that reports to `collector`.
    init(collector: ReferenceCollector) {
        self.collector = collector
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              !Self.isType(base)
        else { return .visitChildren }
        let name = member.declName.baseName.text
        if Self.unlabeledKeyMethods.contains(name), let first = node.arguments.first, first.label == nil {
            collector.keyExpression(first.expression, form: .string)
        } else if Self.ofKeyMethods.contains(name), let of = node.arguments.first(where: { $0.label?.text == "of" }) {
            collector.keyExpression(of.expression, form: .string)
        }
        return .visitChildren
    }

    /// Whether an expression names a type (its last name is capitalized): `Value`, `Switchboard.Value`.
    static func isType(_ expression: ExprSyntax) -> Bool {
        let name: String
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = expression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
        } else {
            return expression.is(GenericSpecializationExprSyntax.self)
        }
        return name.first?.isUppercase ?? false
    }
}
