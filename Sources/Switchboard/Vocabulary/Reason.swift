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
