/// A typed lookup's result: the value the caller gets (their default on error) and why.
public struct Details<T: Sendable>: Sendable {
    /// The key looked up.
    public var key: String
    /// The value to use: the resolved value, or the caller's default when there was an error.
    public var value: T
    /// The variant's name, when there is one.
    public var variant: String?
    /// Why this value.
    public var reason: Reason
    /// The layer that supplied it; `nil` when the caller's default was used.
    public var layer: Layer?
    /// The error, when the caller's default was used because of one.
    public var errorCode: ErrorCode?
    /// A readable account of the error.
    public var errorMessage: String?
}

extension Details {
    /// Creates the details of a lookup; boards other than ``Board`` build theirs with it.
    public init(
        of key: String, value: T, variant: String? = nil, reason: Reason, layer: Layer? = nil,
        errorCode: ErrorCode? = nil, errorMessage: String? = nil
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.layer = layer
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
