/// The flag metadata a server's bulk evaluation uses to announce the next moment a value changes by itself (a
/// schedule step, a runtime override's expiry), so a remote board applies it then, even offline. Written by
/// `SwitchboardServer`, read by `SwitchboardRemote`: the names live here, once.
package enum UpcomingChangeMetadata {
    /// The moment, RFC 3339 UTC.
    package static let at = "switchboard.next_at"
    /// The value from then on; `null` for none (the caller's default).
    package static let value = "switchboard.next_value"
}
