import SwiftSyntax

/// Finds the generated typed keys (`Flags.Checkout.newFlow`, `Prefs.App.theme`) wherever they appear: as a
/// lookup's argument, a property wrapper's, a subscript's, or on their own.
final class TypedKeyVisitor: SyntaxVisitor {
    private let paths: [String: String]
    private let collector: ReferenceCollector

    /// A visitor that knows the typed keys by their Swift paths (from the generator's key tree).
    init(paths: [String: String], collector: ReferenceCollector) {
        self.paths = paths
        self.collector = collector
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // The longest chain is seen first: `Flags.Checkout.newFlow.defaultValue` does not match, its base does.
        guard let path = TypedKeyPath(ExprSyntax(node))?.fromRoot, let key = paths[path] else { return .visitChildren }
        collector.key(key, at: node, form: .typed)
        return .skipChildren
    }
}
