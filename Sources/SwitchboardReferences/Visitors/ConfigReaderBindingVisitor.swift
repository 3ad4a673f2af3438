import SwiftSyntax

/// Finds the names bound to a swift-configuration `ConfigReader`: `let config = ConfigReader(…)`,
/// `var reader: ConfigReader`, a parameter `config: ConfigReader`; and the names bound to a scoped reader
/// (`let checkout = config.scoped(to: "checkout")`), whose keys are not whole keys.
final class ConfigReaderBindingVisitor: SyntaxVisitor {
    /// Names bound to a reader of whole keys.
    private(set) var readers: Set<String> = []
    /// Names bound to a reader made with `scoped(to:)`.
    private(set) var scoped: Set<String> = []

    /// A visitor with nothing found yet.
    init() {
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        guard let name = node.pattern.as(IdentifierPatternSyntax.self).map({ TypedKeyPath.name($0.identifier) })
        else { return .visitChildren }
        if let value = node.initializer?.value, Self.isScopedReader(value) {
            scoped.insert(name)
        } else if let value = node.initializer?.value, Self.isNewReader(value) {
            readers.insert(name)
        } else if let type = node.typeAnnotation?.type, Self.isReaderType(type) {
            readers.insert(name)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        if Self.isReaderType(node.type) {
            readers.insert(TypedKeyPath.name(node.secondName ?? node.firstName))
        }
        return .visitChildren
    }

    /// Whether a type is `ConfigReader` (or `Configuration.ConfigReader`).
    static func isReaderType(_ type: TypeSyntax) -> Bool {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "ConfigReader" }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "ConfigReader" }
        return false
    }

    /// Whether an expression makes a new reader: `ConfigReader(…)`.
    static func isNewReader(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text == "ConfigReader"
        }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "ConfigReader"
    }

    /// Whether an expression is a `….scoped(to: …)` call.
    static func isScopedReader(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return member.declName.baseName.text == "scoped"
    }
}
