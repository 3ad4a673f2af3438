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
    let scheduled: [Int]

    /// Creates a registry from definitions whose keys are unique.
    public init(definitions: [Definition], files: [String] = []) {
        self.init(definitions: definitions, files: files, index: nil)
    }

    /// Creates a registry, with the position of each key when the caller has it already.
    init(definitions: [Definition], files: [String], index known: [String: Int]?) {
        self.definitions = definitions
        self.files = files
        var index: [String: Int] = [:]
        var renamed: [String: Int] = [:]
        var scheduled: [Int] = []
        if known == nil { index.reserveCapacity(definitions.count) }
        // By index, reading fields in place: iterating the definitions would copy each one.
        for position in definitions.indices {
            if known == nil { index[definitions[position].key] = position }
            for old in definitions[position].renamedFrom { renamed[old] = position }
            if definitions[position].scheduleBox != nil { scheduled.append(position) }
        }
        self.index = known ?? index
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

    /// The keys nearest to a key no definition has, for "did you mean": what every face suggests.
    public func suggestions(for unknownKey: String) -> [String] {
        Suggestions.near(unknownKey, in: keys)
    }

    /// The message for a key no definition has, with ``suggestions(for:)``.
    package func unknownKeyMessage(_ key: String) -> Message {
        .unknownKey(key, suggestions: suggestions(for: key))
    }
}
