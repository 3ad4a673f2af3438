import SwiftSyntax

/// What an expression in a key's position says about the key.
enum KeyExpression: Equatable {
    /// A string literal without interpolation: the key itself.
    case literal(String)
    /// A typed key path under `Flags` or `Prefs`; the typed-key visitor reports it.
    case typed
    /// A key known only at run time: an interpolated or concatenated string, a variable, a call.
    case dynamic
    /// Not a key at all (a number, a closure, an array).
    case notAKey

    /// Classifies the expression passed where a key goes.
    init(_ expression: ExprSyntax) {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            self = KeyExpression.text(of: literal).map(KeyExpression.literal) ?? .dynamic
        } else if let path = TypedKeyPath(expression), path.rootIndex != nil {
            self = .typed
        } else if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
            || expression.is(ArrayExprSyntax.self) || expression.is(DictionaryExprSyntax.self)
            || expression.is(ClosureExprSyntax.self) || expression.is(FunctionCallExprSyntax.self)
                && KeyExpression.isFlagKeyCall(expression)
        {
            self = .notAKey
        } else {
            self = .dynamic
        }
    }

    /// The text of a string literal with no interpolation, or `nil`.
    static func text(of literal: StringLiteralExprSyntax) -> String? {
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }

    /// Whether the expression is a `FlagKey(…)` call, which the FlagKey visitor reports.
    static func isFlagKeyCall(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        return FlagKeyVisitor.isFlagKey(call.calledExpression)
    }
}

/// A chain of names joined by dots (`Flags.Checkout.newFlow`, `MyApp.Flags.Checkout.newFlow`), without backticks.
struct TypedKeyPath {
    /// The names, outermost first.
    var names: [String]

    /// The chain of a member access on a name; `nil` for any other expression.
    init?(_ expression: ExprSyntax) {
        var names: [String] = []
        var current = expression
        while let member = current.as(MemberAccessExprSyntax.self) {
            names.append(TypedKeyPath.name(member.declName.baseName))
            guard let base = member.base else { return nil }
            current = base
        }
        guard let root = current.as(DeclReferenceExprSyntax.self) else { return nil }
        names.append(TypedKeyPath.name(root.baseName))
        self.names = names.reversed()
    }

    /// Where `Flags` or `Prefs` starts the path, when one does and something follows it.
    var rootIndex: Int? {
        guard let index = names.firstIndex(where: { $0 == "Flags" || $0 == "Prefs" }), index < names.count - 1
        else { return nil }
        return index
    }

    /// The path from the root on, as ``SwitchboardCodegen/AccessorGenerator/typedKeyPaths(_:)`` writes it.
    var fromRoot: String? {
        rootIndex.map { names[$0...].joined(separator: ".") }
    }

    /// A name token's text without backticks.
    static func name(_ token: TokenSyntax) -> String {
        let text = token.text
        return text.hasPrefix("`") && text.hasSuffix("`") && text.count >= 2
            ? String(text.dropFirst().dropLast()) : text
    }
}
