extension Board {
    /// The key's runtime override when its expiry is still ahead by the board's clock, with the expiry and that
    /// clock's time (seconds since the epoch): what `get`, `explain`, `list`, the REPL and the admin API show as
    /// `expires_at` and the time left. `nil` when it has no override, or one that never expires or has expired.
    /// At `time` (seconds since the epoch) when given, as `--at` asks: the override as it stands now, expiring
    /// after that moment.
    package func expiringOverride(
        _ key: String, at time: Double? = nil
    ) -> (override: StoredOverride, expiry: Double, now: Double)? {
        guard let stored = engine.storedOverride(key), let expiry = stored.expiry else { return nil }
        let now = time ?? clock.now()
        return expiry > now ? (stored, expiry, now) : nil
    }

    /// The `expires_at` to show beside a resolution of `key`: the runtime override's, when that override is what
    /// the resolution serves and it expires.
    package func expiresAt(of key: String, serving resolution: Resolution, at time: Double? = nil) -> String? {
        guard resolution.layer == .runtime else { return nil }
        return expiringOverride(key, at: time)?.override.expiresAt
    }

    /// `expires in 1 h 59 min` for the runtime override a resolution of `key` serves, when it expires.
    package func expiresText(of key: String, serving resolution: Resolution, at time: Double? = nil) -> String? {
        guard resolution.layer == .runtime, let expiring = expiringOverride(key, at: time) else { return nil }
        return ExpiryInput.expiresText(at: expiring.expiry, now: expiring.now)
    }
}
