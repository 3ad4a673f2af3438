import SwiftSyntax

/// Finds `FlagKey("checkout.new_flow", default: …)` (also `FlagKey<Bool>(…)` and `Switchboard.FlagKey(…)`).
final class FlagKeyVisitor: SyntaxVisitor {
    private let collector: ReferenceCollector

    /// A visitor that reports to `collector`.
    init(collector: ReferenceCollector) {
        self.collector = collector
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if Self.isFlagKey(node.calledExpression), let first = node.arguments.first, first.label == nil {
            collector.keyExpression(first.expression, form: .flagkey)
        }
        return .visitChildren
    }

    /// Whether a called expression names the `FlagKey` type.
    static func isFlagKey(_ called: ExprSyntax) -> Bool {
        if let specialized = called.as(GenericSpecializationExprSyntax.self) {
            return isFlagKey(specialized.expression)
        }
        if let reference = called.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text == "FlagKey"
        }
        if let member = called.as(MemberAccessExprSyntax.self), member.base != nil {
            return member.declName.baseName.text == "FlagKey"
        }
        return false
    }
}
