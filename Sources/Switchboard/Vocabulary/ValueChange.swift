/// A key whose resolved value changed.
public struct ValueChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value before (`nil`: the key was not defined).
    public var old: Value?
    /// The value now (`nil`: the key is no longer defined).
    public var new: Value?
    /// The layer the new value comes from.
    public var layer: Layer?
}

extension ValueChange {
    /// Creates a change; boards other than `Board` report theirs with it.
    public init(of key: String, from old: Value?, to new: Value?, layer: Layer? = nil) {
        self.key = key
        self.old = old
        self.new = new
        self.layer = layer
    }
}
