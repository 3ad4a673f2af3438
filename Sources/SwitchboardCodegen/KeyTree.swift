import Switchboard
import YAML

/// The definitions arranged as Swift will see them: one enum per key segment under `Flags` or `Prefs`, one typed
/// key per definition, and a `String`-backed enum for each definition with a closed set of string values.
///
/// Building the tree is where names are checked: two keys (or two segments) that become the same Swift name in
/// one enum are reported at the later one's `file:line:column`, and that definition is left out.
struct KeyTree {
    /// An enum that groups keys: a root (`Flags`, `Prefs`) or one segment of the keys below it.
    struct Scope {
        /// The type name as declared (escaped where it must be).
        var name: String
        /// The key prefix the scope stands for, `checkout.history.`; empty for a root.
        var prefix: String
        /// The scopes below, by raw key segment.
        var children: [String: Int] = [:]
        /// Nested scopes and keys, in the order their definitions appear.
        var members: [Member] = []
        /// Every Swift name declared in the scope, unescaped, with what declared it.
        var claims: [String: Claim] = [:]
        /// The type names among ``claims``: they shadow module types in this scope and the scopes below.
        var typeNames: Set<String> = []
        /// The enclosing scope; `nil` for a root.
        var parent: Int?
    }

    /// A declaration in a scope.
    enum Member: Equatable {
        /// A nested scope, by index.
        case scope(Int)
        /// A typed key, by index into ``KeyTree/keys`` (the definition's position in the registry).
        case key(Int)
    }

    /// What declared a name, for the message when a second declaration wants it.
    struct Claim {
        /// How to name it in a message: `checkout.new_flow`, or `the enum for checkout.history.*`.
        var what: String
        /// Where its definition is written.
        var location: SourceLocation
    }

    /// One definition's typed key.
    struct Key {
        /// The definition.
        var definition: Definition
        /// The scope that declares it.
        var scope: Int
        /// The property name as declared.
        var name: String
        /// The value enum, when the definition has a closed set of string values.
        var values: ValueEnum?
    }

    /// A `String`-backed enum for a preference's `values` or a string flag's variants.
    struct ValueEnum {
        /// The type name as declared.
        var name: String
        /// The cases in declaration order: name as declared and raw value.
        var cases: [(name: String, rawValue: String)]
        /// The name of the default's case.
        var defaultCase: String
        /// Whether the cases are variant names (raw values are the variants' values) rather than the values.
        var isVariants: Bool
    }

    /// Case names a value enum cannot have: `SortOrder.allCases` would be ambiguous with `CaseIterable`'s, and
    /// `valueType` with `FlagValue`'s.
    static let reservedCaseNames: Set<String> = ["allCases", "valueType"]

    /// The root type names.
    static let flagsRoot = "Flags", preferencesRoot = "Prefs"

    var scopes: [Scope] = [
        Scope(name: KeyTree.flagsRoot, prefix: ""),
        Scope(name: KeyTree.preferencesRoot, prefix: ""),
    ]
    /// The typed keys by the definitions' positions; `nil` where an error left a definition out.
    var keys: [Key?]
    var diagnostics: [Diagnostic] = []

    /// Builds the tree for a registry's definitions, in declaration order.
    init(_ definitions: [Definition]) {
        keys = Array(repeating: nil, count: definitions.count)
        // Scopes first, so a key's value enum always yields to an enum of the same name that groups keys below
        // it, whatever order the definitions come in. Each key keeps its place among its scope's members, so the
        // source follows the order of the YAML.
        var parents: [Int?] = []
        for (position, definition) in definitions.enumerated() {
            let parent = placeScopes(for: definition)
            if let parent { scopes[parent].members.append(.key(position)) }
            parents.append(parent)
        }
        for (position, (definition, parent)) in zip(definitions, parents).enumerated() {
            guard let parent else { continue }
            placeKey(definition, at: position, in: parent)
        }
    }

    /// Creates the scopes of a definition's key and reserves its place in the innermost one; `nil` when a
    /// segment cannot be named.
    private mutating func placeScopes(for definition: Definition) -> Int? {
        var scope = definition.kind == .flag ? 0 : 1
        let segments = definition.key.split(separator: ".").map(String.init)
        var prefix = ""
        for segment in segments.dropLast() {
            prefix += segment + "."
            if let child = scopes[scope].children[segment] {
                scope = child
                continue
            }
            guard let name = SwiftName.type(forSegment: segment) else {
                unnameable(segment, of: definition)
                return nil
            }
            let claim = Claim(what: "the enum for \(prefix)*, first used by \(definition.key)",
                              location: definition.location)
            if let other = scopes[scope].claims[SwiftName.unescaped(name)] {
                collision(definition, becomes: path(scope, name), with: other)
                return nil
            }
            scopes.append(Scope(name: name, prefix: prefix, parent: scope))
            let child = scopes.count - 1
            scopes[scope].children[segment] = child
            scopes[scope].claims[SwiftName.unescaped(name)] = claim
            scopes[scope].typeNames.insert(SwiftName.unescaped(name))
            scopes[scope].members.append(.scope(child))
            scope = child
        }
        return scope
    }

    /// Declares a definition's typed key (and its value enum) in its scope.
    private mutating func placeKey(_ definition: Definition, at position: Int, in scope: Int) {
        let segment = String(definition.key.split(separator: ".").last ?? "")
        guard let name = SwiftName.member(forSegment: segment) else {
            unnameable(segment, of: definition)
            return
        }
        if let other = scopes[scope].claims[SwiftName.unescaped(name)] {
            collision(definition, becomes: path(scope, name), with: other)
            return
        }
        scopes[scope].claims[SwiftName.unescaped(name)] = Claim(what: definition.key, location: definition.location)
        var key = Key(definition: definition, scope: scope, name: name)
        key.values = valueEnum(for: definition, segment: segment, in: scope)
        if let values = key.values {
            let bare = SwiftName.unescaped(values.name)
            scopes[scope].claims[bare] = Claim(what: "the values of \(definition.key)", location: definition.location)
            scopes[scope].typeNames.insert(bare)
        }
        keys[position] = key
    }

    /// The value enum of a string definition with `values` or variants, or `nil` (with a warning saying why) when
    /// its values cannot all be Swift cases; the key is then typed `String`.
    private mutating func valueEnum(for definition: Definition, segment: String, in scope: Int) -> ValueEnum? {
        guard definition.type == .string else { return nil }
        let isVariants = !definition.variants.isEmpty
        var pairs: [(label: String, rawValue: String)] = []
        if isVariants {
            for variant in definition.variants {
                guard case .string(let value) = variant.value else { return nil }
                pairs.append((variant.name, value))
            }
        } else if let allowed = definition.allowedValues {
            for value in allowed {
                guard case .string(let text) = value else { return nil }
                // A value listed twice is one case.
                if !pairs.contains(where: { $0.rawValue == text }) { pairs.append((text, text)) }
            }
        } else {
            return nil
        }
        guard let name = SwiftName.type(forSegment: segment) else { return nil }
        func fallBack(_ reason: String, hint: String) -> ValueEnum? {
            diagnostics.append(.warning(
                at: definition.location, "\(definition.key) is typed String: \(reason)", hint: hint))
            return nil
        }
        if let other = scopes[scope].claims[SwiftName.unescaped(name)] {
            return fallBack("its enum would be \(path(scope, name)), which is \(other.what) (\(other.location))",
                            hint: "rename one of the keys to get an enum of its values")
        }
        var cases: [(name: String, rawValue: String)] = []
        var seen: [String: String] = [:]
        for pair in pairs {
            let what = isVariants ? "variant" : "value"
            guard let caseName = SwiftName.enumCase(forValue: pair.label) else {
                return fallBack("the \(what) \(SwiftLiteral.string(pair.label)) has no Swift case name",
                                hint: "enum cases are made from ASCII letters and digits")
            }
            let bare = SwiftName.unescaped(caseName)
            if Self.reservedCaseNames.contains(bare) {
                return fallBack("the \(what) \(SwiftLiteral.string(pair.label)) would be the case \(bare), "
                                + "which Swift's CaseIterable or Switchboard's FlagValue already declares",
                                hint: "rename the \(what) to get an enum")
            }
            if let first = seen[bare] {
                return fallBack("the \(what)s \(SwiftLiteral.string(first)) and \(SwiftLiteral.string(pair.label)) "
                                + "both become the case \(bare)", hint: "rename one of them to get an enum")
            }
            seen[bare] = pair.label
            cases.append((caseName, pair.rawValue))
        }
        if isVariants, Set(cases.map(\.rawValue)).count < cases.count {
            return fallBack("two variants have the same value, so a case cannot tell them apart",
                            hint: "give each variant its own value to get an enum")
        }
        let defaultLabel = isVariants ? definition.defaultVariant : definition.defaultValue.stringValue
        // A flagd flag without a default variant leaves the default to the caller: the first case.
        let position = pairs.firstIndex { $0.label == defaultLabel } ?? (definition.hasDefault ? nil : 0)
        guard let position else { return nil }
        return ValueEnum(name: name, cases: cases, defaultCase: cases[position].name, isVariants: isVariants)
    }

    /// The Swift path of a name declared in a scope: `Flags.Checkout.newFlow`.
    func path(_ scope: Int, _ name: String) -> String {
        var names = [SwiftName.afterDot(name)]
        var current: Int? = scope
        while let index = current {
            names.append(SwiftName.afterDot(scopes[index].name))
            current = scopes[index].parent
        }
        return names.reversed().joined(separator: ".")
    }

    private mutating func collision(_ definition: Definition, becomes path: String, with other: Claim) {
        diagnostics.append(.error(
            at: definition.location,
            "\(definition.key) would be \(path) in Swift, which is already \(other.what) (\(other.location))",
            hint: "rename one of them: Swift names keep only letters and digits, capitalizing each word"))
    }

    private mutating func unnameable(_ segment: String, of definition: Definition) {
        diagnostics.append(.error(
            at: definition.location,
            "the segment '\(segment)' of \(definition.key) cannot become a Swift name",
            hint: "Swift names are made from a segment's ASCII letters and digits; rename the key"))
    }
}
