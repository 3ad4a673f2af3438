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

extension Details where T: FlagValue {
    /// What a typed lookup with `defaultValue` reports for a resolution: its value as `T`; or the caller's default,
    /// with the resolution's reason when it served no value (a disabled flag) and `TYPE_MISMATCH` when the value
    /// is not a `T`. Every board's lookups and key streams type a resolution here.
    package init(key: String, resolution: Resolution, default defaultValue: T) {
        self.init(of: key, value: defaultValue, variant: resolution.variant, reason: resolution.reason,
                  layer: resolution.layer, errorCode: resolution.errorCode, errorMessage: resolution.errorMessage)
        guard let value = resolution.value else {
            layer = nil
            return
        }
        if let typed = T(flagValue: value) {
            self.value = typed
        } else {
            reason = .error
            layer = nil
            variant = nil
            errorCode = .typeMismatch
            errorMessage = Message.typeMismatch(
                key: key, found: value, expected: T.valueType, swiftType: "\(T.self)", field: T.mismatch(in: value)
            ).text
        }
    }
}
