import SwiftSyntax

/// Finds `forKey:` keys of reads through a swift-configuration `ConfigReader` (`config.string(forKey: "…")`,
/// `requiredInt`, `fetch…`, `watch…`): the receiver must be a name bound to a reader (in any of the scanned files)
/// or a `ConfigReader(…)` made in place. A reader made with `scoped(to:)` prefixes its keys, so its reads are
/// dynamic. Other `forKey:` calls (`UserDefaults`) are left alone.
final class ConfigKeyVisitor: SyntaxVisitor {
    private let readers: Set<String>
    private let scoped: Set<String>
    private let collector: ReferenceCollector

    /// A visitor that knows the names bound to readers and to scoped readers.
    init(readers: Set<String>, scoped: Set<String>, collector: ReferenceCollector) {
        self.readers = readers
        self.scoped = scoped
        self.collector = collector
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              let key = node.arguments.first(where: { $0.label?.text == "forKey" })
        else { return .visitChildren }
        switch receiver(base) {
        case .reader: collector.keyExpression(key.expression, form: .config)
        case .scoped: collector.dynamicKey(at: key.expression)
        case .other: break
        }
        return .visitChildren
    }

    private enum Receiver { case reader, scoped, other }

    /// What the receiver of a `forKey:` call is.
    private func receiver(_ base: ExprSyntax) -> Receiver {
        if ConfigReaderBindingVisitor.isScopedReader(base) { return .scoped }
        if ConfigReaderBindingVisitor.isNewReader(base) { return .reader }
        let name: String
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            name = TypedKeyPath.name(reference.baseName)
        } else if let member = base.as(MemberAccessExprSyntax.self) {
            name = TypedKeyPath.name(member.declName.baseName)
        } else {
            return .other
        }
        if scoped.contains(name) { return .scoped }
        return readers.contains(name) ? .reader : .other
    }
}
