import SwiftSyntax

/// What the visitors of one file find, with the converter that turns syntax positions into lines and columns.
final class ReferenceCollector {
    private let file: String
    private let converter: SourceLocationConverter
    /// The keys named exactly.
    private(set) var references: [KeyReference] = []
    /// The keys built at run time.
    private(set) var dynamic: [SourcePosition] = []

    /// A collector for a parsed file, reported under `file`.
    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
    }

    /// Where a node starts, after its leading trivia.
    func position(of node: some SyntaxProtocol) -> SourcePosition {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourcePosition(file: file, line: location.line, column: location.column)
    }

    /// Records a key named exactly.
    func key(_ key: String, at node: some SyntaxProtocol, form: ReferenceForm) {
        references.append(KeyReference(key: key, position: position(of: node), form: form))
    }

    /// Records a key expression of the given kind in a key's position; typed keys and non-keys are left alone.
    func keyExpression(_ expression: ExprSyntax, form: ReferenceForm) {
        switch KeyExpression(expression) {
        case .literal(let text): key(text, at: expression, form: form)
        case .dynamic: dynamic.append(position(of: expression))
        case .typed, .notAKey: break
        }
    }

    /// Records a key built at run time.
    func dynamicKey(at node: some SyntaxProtocol) {
        dynamic.append(position(of: node))
    }
}
