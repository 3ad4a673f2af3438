/// A board that app code can change as well as read: ``Board`` writes runtime overrides (validated, persisted,
/// audited); `RemoteBoard` (in `SwitchboardRemote`) writes overrides that live on this device only. The
/// ``Preference`` property wrapper writes through it.
public protocol PreferenceStore: FlagReader {
    /// Writes an override of `key`, checked the way the store checks every write; throws and writes nothing
    /// when the value is refused.
    func setOverride(_ key: String, to value: Value, actor: String) throws

    /// Removes the override of `key` this store keeps, so the value underneath applies again.
    func resetOverride(_ key: String, actor: String) throws
}
