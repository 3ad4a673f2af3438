public import Switchboard

extension AccessorGenerator {
    /// The Swift path of each definition's generated typed key, as code writes it, mapped to the definition's key:
    /// `Flags.Checkout.newFlow` → `checkout.new_flow`.
    ///
    /// It comes from the same key tree that ``generate(_:)`` writes, so it names exactly the keys the generated
    /// file declares: a definition left out for a name collision has no path. Names are without backticks
    /// (`Flags.Checkout.default`), as a reader of the source compares them.
    public static func typedKeyPaths(_ registry: Registry) -> [String: String] {
        let tree = KeyTree(registry.definitions)
        var paths: [String: String] = [:]
        for case let key? in tree.keys {
            let path = tree.path(key.scope, key.name)
            let bare = path.split(separator: ".").map { SwiftName.unescaped(String($0)) }.joined(separator: ".")
            paths[bare] = key.definition.key
        }
        return paths
    }
}

extension AccessorGenerator {
    /// The Swift literal that stands in for a read of `definition` returning `value`, when code that retires the
    /// definition can write one: `true`, `42`, `50.0`, `"blue"`. `nil` for a list or an object (a literal's
    /// inferred type would differ from `[Value]` or `[String: Value]`) and, when `typed` is set, for a key whose
    /// generated type is a value enum, which goes away with the definition.
    package static func retiredLiteral(_ value: Value, of definition: Definition, typed: Bool) -> String? {
        if typed, KeyTree([definition]).keys.contains(where: { $0?.values != nil }) {
            return nil
        }
        switch definition.type {
        case .bool, .int, .string: return SwiftLiteral.flat(value, .typed)
        case .double: return SwiftLiteral.double(value)
        case .list, .object: return nil
        }
    }
}
