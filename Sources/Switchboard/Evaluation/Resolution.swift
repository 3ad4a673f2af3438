import YAML

/// The layers a value resolves through, lowest first. The highest layer with a value wins.
public enum Layer: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The definition's default, or what its targeting chose.
    case `default`
    /// An override file (`flags/environments/NAME.yaml`, then `flags/local.overrides.yaml`).
    case file
    /// A `SWITCHBOARD_...` environment variable.
    case env
    /// The persisted runtime override store.
    case runtime

    /// Lowest to highest precedence.
    public static func < (lhs: Layer, rhs: Layer) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Why a value resolved as it did, in OpenFeature's terms.
public enum Reason: String, Sendable, Hashable {
    /// The definition's default, with no targeting involved.
    case `static` = "STATIC"
    /// The definition's default, because targeting matched nothing.
    case `default` = "DEFAULT"
    /// A targeting rule or rollout chose the value.
    case targetingMatch = "TARGETING_MATCH"
    /// A rollout split chose the value.
    case split = "SPLIT"
    /// The flag is switched off; it serves its default.
    case disabled = "DISABLED"
    /// A file, env or runtime override supplied the value.
    case override = "OVERRIDE"
    /// Something went wrong; the caller's default was returned.
    case error = "ERROR"
    /// A value served from a cache, not freshly evaluated: what a remote board reports while its server is
    /// unreachable.
    case cached = "CACHED"
    /// A reason the source gave that OpenFeature does not name (a remote server's own reasons).
    case unknown = "UNKNOWN"

    /// The reason as OpenFeature names it to clients: ``override`` — Switchboard's own reason for a file, env or
    /// runtime override, which strict OpenFeature clients reject — is `STATIC`, since the value is fixed whatever
    /// the context. OFREP responses and `feature_flag.evaluation` events both use it.
    public var openFeatureName: String {
        self == .override ? Reason.static.rawValue : rawValue
    }
}

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
}

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
