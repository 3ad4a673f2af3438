/// The outcome of resolving one key: the value and everything about how it was chosen.
public struct Resolution: Sendable, Hashable {
    /// The value, or `nil` when the key is unknown or evaluation failed (the caller's default applies).
    public var value: Value?
    /// The variant's name, when the value is one of the definition's variants.
    public var variant: String?
    /// Why this value.
    public var reason: Reason
    /// The layer that supplied the value.
    public var layer: Layer?
    /// What went wrong, when something did.
    public var errorCode: ErrorCode?
    /// A readable account of the error.
    public var errorMessage: String?
    /// Flag metadata (flagd files carry it).
    public var metadata: [String: Value]

    /// Creates a resolution.
    public init(
        value: Value?, variant: String? = nil, reason: Reason, layer: Layer? = nil, errorCode: ErrorCode? = nil,
        errorMessage: String? = nil, metadata: [String: Value] = [:]
    ) {
        self.value = value
        self.variant = variant
        self.reason = reason
        self.layer = layer
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
    }

    /// A failed resolution.
    public static func failure(_ code: ErrorCode, _ message: String) -> Resolution {
        Resolution(value: nil, reason: .error, errorCode: code, errorMessage: message)
    }

    /// The resolution of a key nothing defines (`FLAG_NOT_FOUND`), in the words every face uses: a board, a remote
    /// board and the server.
    public static func notFound(_ key: String) -> Resolution {
        .failure(.flagNotFound, "no definition has the key \(key)")
    }
}
