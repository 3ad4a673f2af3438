/// A key whose resolution changed, with its values: what subscribers, per-key observers and streams receive.
///
/// The values are those for the empty context (a remote board's: for its own context). A handler has what it
/// needs without reading the board again.
public struct ValueChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value before (`nil`: the key was not defined, or served no value, as a disabled flag).
    public var old: Value?
    /// How the key resolves now: its value, variant, reason, layer and error (`nil`: the key is no longer defined).
    public var resolution: Resolution?

    /// Creates a change; boards other than `Board` report theirs with it.
    public init(of key: String, from old: Value?, to resolution: Resolution?) {
        self.key = key
        self.old = old
        self.resolution = resolution
    }

    /// The value now (`nil`: the key is no longer defined, or it serves no value, as a disabled flag does: the
    /// caller's default applies).
    public var new: Value? { resolution?.value }

    /// The layer the new value comes from.
    public var layer: Layer? { resolution?.layer }

    /// Why the new value (`nil`: the key is no longer defined).
    public var reason: Reason? { resolution?.reason }
}
