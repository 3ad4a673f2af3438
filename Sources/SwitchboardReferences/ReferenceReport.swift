public import Switchboard

/// Who reads each key: what `switchboard refs` prints, and what a report of stale flags starts from.
public struct ReferenceReport: Sendable, Hashable {
    /// A definition and the code that names it.
    public struct Definition: Sendable, Hashable {
        /// The definition's key.
        public var key: String
        /// The references, in file, line and column order.
        public var references: [KeyReference]
        /// Whether the key may go without references (other programs read it, over OFREP say), so it is not
        /// among the ``ReferenceReport/unreferenced`` keys.
        public var isAllowedUnreferenced = false
    }

    /// A key that code names but no file defines.
    public struct Undefined: Sendable, Hashable {
        /// Where and how the code names it.
        public var reference: KeyReference
        /// The defined key it most likely means: the definition that lists it in `renamed_from`, else the
        /// nearest key by edit distance.
        public var suggestion: String?
    }

    /// Every definition, in declaration order, with its references (none for an unreferenced one).
    public var definitions: [Definition]
    /// The keys code names that no file defines, in file order.
    public var undefined: [Undefined]
    /// Where keys are built at run time.
    public var dynamic: [SourcePosition]

    /// The keys of the definitions no code references and none allowed to go without, in declaration order.
    public var unreferenced: [String] {
        definitions.filter { $0.references.isEmpty && !$0.isAllowedUnreferenced }.map(\.key)
    }

    /// The report of a scan against a registry.
    public init(registry: Registry, scan: ScanResult) {
        var byKey: [String: [KeyReference]] = [:]
        var undefined: [Undefined] = []
        let keys = Set(registry.keys)
        for reference in scan.references {
            if keys.contains(reference.key) {
                byKey[reference.key, default: []].append(reference)
            } else {
                let suggestion = registry.definition(renamedFrom: reference.key)?.key
                    ?? Suggestions.nearest(to: reference.key, in: registry.keys)
                undefined.append(Undefined(reference: reference, suggestion: suggestion))
            }
        }
        definitions = registry.keys.map { Definition(key: $0, references: byKey[$0] ?? []) }
        self.undefined = undefined
        dynamic = scan.dynamic
    }
}
