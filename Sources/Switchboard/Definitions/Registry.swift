/// Every definition, immutable and indexed by key, in declaration order (files in path order, then the order
/// within each file).
public struct Registry: Sendable {
    /// The definitions in declaration order.
    public let definitions: [Definition]
    /// The definition files that were read, in the order they were read.
    public let files: [String]
    private let index: [String: Int]
    private let renamed: [String: Int]
    /// The positions of the definitions that have a schedule.
    package let scheduled: [Int]

    /// Creates a registry from definitions whose keys are unique.
    public init(definitions: [Definition], files: [String] = []) {
        self.init(definitions: definitions, files: files, known: nil)
    }

    /// Where the keys, the `renamed_from` entries and the schedules are among a registry's definitions, when the
    /// loader found them while joining the files: a registry made with them reads no definition again.
    struct Positions {
        /// The position of each key.
        var index: [String: Int]
        /// The position of the definition that lists each `renamed_from` entry (each listed once).
        var renamed: [String: Int]
        /// The positions of the definitions that have a schedule, in order.
        var scheduled: [Int]
    }

    /// Creates a registry, with the positions of its keys, renamed keys and schedules when the caller has them.
    init(definitions: [Definition], files: [String], known: Positions?) {
        self.definitions = definitions
        self.files = files
        if let known {
            (index, renamed, scheduled) = (known.index, known.renamed, known.scheduled)
            return
        }
        var index: [String: Int] = [:]
        var renamed: [String: Int] = [:]
        var scheduled: [Int] = []
        index.reserveCapacity(definitions.count)
        // By index, reading fields in place: iterating the definitions would copy each one.
        for position in definitions.indices {
            index[definitions[position].key] = position
            for old in definitions[position].renamedFrom { renamed[old] = position }
            if definitions[position].scheduleBox != nil { scheduled.append(position) }
        }
        self.index = index
        self.renamed = renamed
        self.scheduled = scheduled
    }

    /// An empty registry.
    public static let empty = Registry(definitions: [])

    /// The definition of a key, if there is one.
    public subscript(key: String) -> Definition? {
        index[key].map { definitions[$0] }
    }

    /// The position of a key in ``definitions``.
    public func position(of key: String) -> Int? {
        index[key]
    }

    /// The definition that lists `oldKey` in its `renamed_from`.
    public func definition(renamedFrom oldKey: String) -> Definition? {
        renamed[oldKey].map { definitions[$0] }
    }

    /// Every key, in declaration order.
    public var keys: [String] { definitions.map(\.key) }

    /// The number of definitions.
    public var count: Int { definitions.count }

    /// The keys nearest to a key no definition has, for "did you mean": what every face suggests. First the key
    /// that lists it in `renamed_from` (the same flag under its new name), then a key that differs from it only in
    /// letter case, then the keys it ends (`color` for `app.color`), then the keys within a typo's distance; at
    /// most three.
    public func suggestions(for unknownKey: String) -> [String] {
        let keys = keys
        var first: [String] = []
        if let renamed = definition(renamedFrom: unknownKey) { first.append(renamed.key) }
        let folded = unknownKey.lowercased()
        if let sameLetters = keys.first(where: { $0.lowercased() == folded }), !first.contains(sameLetters) {
            first.append(sameLetters)
        }
        first += Self.tails(of: unknownKey, in: keys).filter { !first.contains($0) }
        let near = Suggestions.near(unknownKey, in: keys).filter { !first.contains($0) }
        return Array((first + near).prefix(3))
    }

    /// The nearest keys and namespaces to a `list` pattern that matches no key: a pattern may name a namespace
    /// (`checkout`), so a misspelt one (`chekout`) is nearest to the namespace, not to any whole key.
    package func patternSuggestions(for pattern: String) -> [String] {
        var namespaces: [String] = []
        var seen: Set<String> = []
        for key in keys {
            var end = key.startIndex
            while let dot = key[end...].firstIndex(of: ".") {
                let namespace = String(key[..<dot])
                if seen.insert(namespace).inserted { namespaces.append(namespace) }
                end = key.index(after: dot)
            }
        }
        let candidates = namespaces + keys.filter { !seen.contains($0) }
        let tails = Self.tails(of: pattern, in: candidates)
        let near = Suggestions.near(pattern, in: candidates).filter { !tails.contains($0) }
        return Array((tails + near).prefix(3))
    }

    /// The candidates that `fragment` is the last segments of: a key or namespace written without its first
    /// segments (`legacy_banner` for `checkout.legacy_banner`) is too far from it for a typo, and the likeliest
    /// meaning.
    private static func tails(of fragment: String, in candidates: [String]) -> [String] {
        candidates.filter { $0.hasSuffix("." + fragment) }
    }

    /// The message for a key no definition has, with ``suggestions(for:)``.
    package func unknownKeyMessage(_ key: String) -> Message {
        .unknownKey(key, suggestions: suggestions(for: key))
    }
}
