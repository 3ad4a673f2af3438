import SwiftSyntax

/// Finds `forKey:` keys of reads through a swift-configuration `ConfigReader` (`config.string(forKey: "…")`,
/// `requiredInt`, `fetch…`, `watch…`). Whether the receiver is a reader is known only once every file's
/// bindings are (a reader declared in one file is read in another), so each `forKey:` call on a name is kept as a
/// candidate, and ``ConfigRead/resolve(readers:scoped:)`` decides. A reader made with `scoped(to:)` prefixes its
/// keys, so its reads are dynamic; other `forKey:` calls (`UserDefaults`) are left alone.
final class ConfigKeyVisitor: SyntaxVisitor {
    private let collector: ReferenceCollector
    /// The `forKey:` calls found, with what their receiver is.
    private(set) var reads: [ConfigRead] = []

    /// A visitor that turns positions into lines and columns with `collector`.
    init(collector: ReferenceCollector) {
        self.collector = collector
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              let key = node.arguments.first(where: { $0.label?.text == "forKey" }),
              let receiver = ConfigRead.Receiver(base)
        else { return .visitChildren }
        reads.append(ConfigRead(receiver: receiver, key: KeyExpression(key.expression),
                                position: collector.position(of: key.expression)))
        return .visitChildren
    }
}

/// A `forKey:` call whose receiver may be a `ConfigReader`.
struct ConfigRead {
    /// What the call is made on.
    enum Receiver: Equatable {
        /// `ConfigReader(…)` made in place.
        case newReader
        /// `….scoped(to: …)` in place.
        case scopedReader
        /// A name (`config`, `self.config`): a reader if some file binds it to one.
        case name(String)

        init?(_ base: ExprSyntax) {
            if ConfigReaderBindingVisitor.isScopedReader(base) {
                self = .scopedReader
            } else if ConfigReaderBindingVisitor.isNewReader(base) {
                self = .newReader
            } else if let reference = base.as(DeclReferenceExprSyntax.self) {
                self = .name(TypedKeyPath.name(reference.baseName))
            } else if let member = base.as(MemberAccessExprSyntax.self) {
                self = .name(TypedKeyPath.name(member.declName.baseName))
            } else {
                return nil
            }
        }
    }

    var receiver: Receiver
    var key: KeyExpression
    var position: SourcePosition

    /// What the read is, given the names bound to readers and to scoped readers in every file: a reference, a
    /// dynamic key, or nothing (`nil`, a receiver that is no reader).
    func resolve(readers: Set<String>, scoped: Set<String>) -> (reference: KeyReference?, dynamic: SourcePosition?)? {
        let isScoped: Bool
        switch receiver {
        case .newReader: isScoped = false
        case .scopedReader: isScoped = true
        case .name(let name):
            if scoped.contains(name) {
                isScoped = true
            } else if readers.contains(name) {
                isScoped = false
            } else {
                return nil
            }
        }
        switch key {
        case .literal(let text) where !isScoped:
            return (KeyReference(key: text, position: position, form: .config), nil)
        case .literal, .dynamic:
            return (nil, position)
        case .typed, .notAKey:
            return isScoped ? (nil, position) : nil
        }
    }
}
