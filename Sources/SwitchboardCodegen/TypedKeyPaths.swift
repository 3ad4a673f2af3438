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
