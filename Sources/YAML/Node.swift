/// One node of a parsed YAML document, with the place it was written.
///
/// Aliases are resolved while parsing, so an aliased node appears as a copy of its anchor's node
/// (carrying the anchor's location). Mapping pairs keep the order of the source.
public struct Node: Sendable {
    /// What a node holds.
    public enum Content: Sendable {
        /// A scalar, with its source text and its core-schema type.
        case scalar(Scalar)
        /// A sequence, in source order.
        case sequence([Node])
        /// A mapping, in source order. Keys are unique: a duplicate is reported and dropped.
        case mapping([Pair])
    }

    /// One key and its value in a mapping.
    public struct Pair: Sendable {
        /// The key node (a scalar in every file Switchboard accepts, but YAML allows any node).
        public var key: Node
        /// The value node.
        public var value: Node

        /// Creates a pair.
        public init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }

    /// The node's content.
    public var content: Content
    /// Where the node starts.
    public var location: SourceLocation
    /// The explicit tag, expanded (`tag:yaml.org,2002:str`), or `nil` when none was written.
    public var tag: String?

    /// Creates a node.
    public init(_ content: Content, location: SourceLocation, tag: String? = nil) {
        self.content = content
        self.location = location
        self.tag = tag
    }

    /// The scalar, when the node is one.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The pairs, when the node is a mapping.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The items, when the node is a sequence.
    public var items: [Node]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// A short name of the node's kind for messages: "a mapping", "an empty sequence", "a string", "an integer", ...
    public var kindDescription: String {
        switch content {
        case .mapping(let pairs): pairs.isEmpty ? "an empty mapping" : "a mapping"
        case .sequence(let items): items.isEmpty ? "an empty sequence" : "a sequence"
        case .scalar(let scalar): scalar.value.kindDescription
        }
    }
}
