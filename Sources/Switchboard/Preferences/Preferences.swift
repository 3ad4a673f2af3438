import Locking
import Logging

/// The process-wide preference store: what ``Preference`` reads and writes when it is given none, as `Defaults`
/// uses one `UserDefaults`.
///
/// ```swift
/// Preferences.defaultStore = board                  // once, at start-up
///
/// final class Settings {
///     @Preference(Prefs.App.theme) var theme        // no store, no generic parameters
/// }
/// ```
///
/// Until a store is set, a read returns the key's default (and logs once that no store is set), a write throws,
/// and nothing traps.
public enum Preferences {
    private static let store = Locked<(any PreferenceStore)?>(nil)
    private static let warned = Locked(false)

    /// The store that a ``Preference`` made without one reads and writes: a ``Board`` (runtime overrides, shared by
    /// every process on its store) or a remote board (overrides on this device only). `nil` until set.
    public static var defaultStore: (any PreferenceStore)? {
        get { store.withLock { $0 } }
        set { store.withLock { $0 = newValue } }
    }

    /// The store in effect, or `nil` after logging (once per process) that none is set.
    fileprivate static func current(for key: String) -> (any PreferenceStore)? {
        if let store = defaultStore { return store }
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first {
            Logger(label: "switchboard.preferences").warning(
                "\(key) was read with no Preferences.defaultStore set: its default is used",
                metadata: ["key": "\(key)"])
        }
        return nil
    }

    /// The store behind a ``Preference`` made without one: ``Preferences/defaultStore`` as it is at each read and
    /// write, or, with none set, every key's default and a write that throws.
    public struct DefaultStore: PreferenceStore {
        /// The default store, as it is at each use.
        public init() {}

        /// The value from the default store, or `defaultValue` when none is set.
        public func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T {
            Preferences.current(for: key)?.value(key, default: defaultValue) ?? defaultValue
        }

        /// The details from the default store, or the caller's default with `PROVIDER_NOT_READY`.
        public func details<T: FlagValue>(
            _ key: String, as type: T.Type, default defaultValue: T, context: EvaluationContext
        ) -> Details<T> {
            Preferences.current(for: key)?.details(key, as: type, default: defaultValue, context: context)
                ?? Details(key: key, resolution: .failure(.providerNotReady, Self.unset.message),
                           default: defaultValue)
        }

        /// The default store's revision (0 when no store is set).
        public var revision: UInt64 { Preferences.defaultStore?.revision ?? 0 }

        /// The default store's changes (none when no store is set).
        public var changes: AsyncStream<ValueChange> {
            Preferences.defaultStore?.changes ?? AsyncStream { $0.finish() }
        }

        /// Observes the key on the default store set now (nothing when none is set).
        public func observe(
            _ key: String, _ onChange: @escaping @Sendable (ValueChange) -> Void
        ) -> ChangeSubscription {
            Preferences.defaultStore?.observe(key, onChange) ?? ChangeSubscription {}
        }

        /// Writes through the default store; throws when none is set.
        public func setOverride(_ key: String, to value: Value, actor: String) throws {
            guard let store = Preferences.defaultStore else { throw Self.unset }
            try store.setOverride(key, to: value, actor: actor)
        }

        /// Removes the override through the default store; throws when none is set.
        public func resetOverride(_ key: String, actor: String) throws {
            guard let store = Preferences.defaultStore else { throw Self.unset }
            try store.resetOverride(key, actor: actor)
        }

        private static let unset = StoreError(
            message: "no preference store is set", hint: "set Preferences.defaultStore at start-up")
    }
}
