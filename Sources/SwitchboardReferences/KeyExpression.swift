import SwiftSyntax

/// What an expression in a key's position says about the key.
enum KeyExpression: Equatable {
    /// A string literal without interpolation, or literals joined with `+`: the key itself.
    case literal(String)
    /// A typed key path under `Flags` or `Prefs`; the typed-key visitor reports it.
    case typed
    /// A key known only at run time: an interpolated string, one joined with a variable, a variable, a call.
    case dynamic
    /// Not a key at all (a number, a closure, an array).
    case notAKey

    /// Classifies the expression passed where a key goes.
    init(_ expression: ExprSyntax) {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            self = KeyExpression.text(of: literal).map(KeyExpression.literal) ?? .dynamic
        } else if let joined = KeyExpression.joinedLiterals(expression) {
            self = .literal(joined)
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

    /// The text of string literals without interpolation joined with `+` (`"checkout." + "new_flow"`), in
    /// parentheses or not, as the parser leaves the operators (a sequence) or folded; `nil` for anything else.
    static func joinedLiterals(_ expression: ExprSyntax) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) { return text(of: literal) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.label == nil {
            return joinedLiterals(only.expression)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            guard infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "+",
                  let left = joinedLiterals(infix.leftOperand), let right = joinedLiterals(infix.rightOperand)
            else { return nil }
            return left + right
        }
        guard let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count % 2 == 1 else {
            return nil
        }
        var text = ""
        for (index, element) in sequence.elements.enumerated() {
            if index % 2 == 1 {
                guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return nil }
            } else {
                guard let part = joinedLiterals(element) else { return nil }
                text += part
            }
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
