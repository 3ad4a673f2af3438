/// What went wrong, in OpenFeature's error codes.
public enum ErrorCode: String, Sendable, Hashable, Error {
    /// No definition has the key.
    case flagNotFound = "FLAG_NOT_FOUND"
    /// The value has another type than the caller asked for.
    case typeMismatch = "TYPE_MISMATCH"
    /// A value or rule could not be parsed.
    case parseError = "PARSE_ERROR"
    /// The targeting key is needed but absent.
    case targetingKeyMissing = "TARGETING_KEY_MISSING"
    /// The context is not usable.
    case invalidContext = "INVALID_CONTEXT"
    /// The provider is not ready.
    case providerNotReady = "PROVIDER_NOT_READY"
    /// Anything else.
    case general = "GENERAL"
}
