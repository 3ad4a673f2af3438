import Switchboard

/// The next change a server announced in a flag's metadata (``UpcomingChangeMetadata``): a schedule step or an
/// override's expiry, with the value from then on. The remote board applies it when its moment comes, from one
/// wake-up, so a device that cannot reach the server (or reads its cache) still changes on time.
enum AnnouncedChange {
    /// The flags with each announced change whose moment has come at `now` applied: the announced value (none:
    /// the caller's default, reason `DISABLED`), the announcement removed.
    static func applyingDue(_ flags: [String: RemoteFlag], now: Double) -> [String: RemoteFlag] {
        guard flags.values.contains(where: { isDue($0, now: now) }) else { return flags }
        return flags.mapValues { flag in
            guard isDue(flag, now: now) else { return flag }
            var applied = flag
            let value = flag.metadata[UpcomingChangeMetadata.value]
            applied.value = value == .null ? nil : value
            applied.variant = nil
            applied.reason = applied.value == nil ? Reason.disabled.openFeatureName : Reason.static.openFeatureName
            applied.metadata[UpcomingChangeMetadata.at] = nil
            applied.metadata[UpcomingChangeMetadata.value] = nil
            return applied
        }
    }

    /// The earliest announced moment among the flags, if any.
    static func next(in flags: [String: RemoteFlag]) -> Double? {
        flags.values.compactMap(moment).min()
    }

    private static func moment(of flag: RemoteFlag) -> Double? {
        flag.metadata[UpcomingChangeMetadata.at]?.stringValue.flatMap(Timestamp.parseZoned)
    }

    private static func isDue(_ flag: RemoteFlag, now: Double) -> Bool {
        moment(of: flag).map { $0 <= now } ?? false
    }
}
