public import Locking
public import Logging

/// A preference as a property: reading gives the current typed value, assigning writes an override through the
/// store's own checks (for a ``Board``: validated, persisted atomically and audited, with ``actor``).
///
/// ```swift
/// final class CameraSettings {
///     @Preference(Prefs.Camera.mode, on: board) var mode
///     @Preference(Prefs.Camera.flash, on: board, actor: "settings-screen") var flash
/// }
/// settings.mode = .portrait                          // persisted now
/// for await mode in settings.$mode.updates { ... }   // this key's values, current first
/// ```
///
/// An assignment the definition refuses writes nothing and leaves the value as it was; it is logged (a warning on
/// ``logger``) and kept in ``PreferenceHandle/lastError`` of the projected value, whose ``PreferenceHandle/set(_:)``
/// throws it instead. Never a crash, never a silently wrong value.
@propertyWrapper
public struct Preference<T: FlagValue, Store: PreferenceStore>: Sendable {
    /// The key, its type and its default.
    public let key: FlagKey<T>
    /// The board read and written.
    public let store: Store
    /// Who assignments are made by, for the audit log.
    public let actor: String
    /// Where refused assignments are reported.
    public let logger: Logger
    @usableFromInline let lastError: Locked<(any Error)?>

    /// A property over `key` on `store`.
    public init(
        _ key: FlagKey<T>, on store: Store, actor: String = "app",
        logger: Logger = Logger(label: "switchboard.preferences")
    ) {
        self.key = key
        self.store = store
        self.actor = actor
        self.logger = logger
        lastError = Locked(nil)
    }

    /// A property over `key` on ``Preferences/defaultStore``: `@Preference(Prefs.App.theme) var theme`.
    public init(
        _ key: FlagKey<T>, actor: String = "app", logger: Logger = Logger(label: "switchboard.preferences")
    ) where Store == Preferences.DefaultStore {
        self.init(key, on: Preferences.DefaultStore(), actor: actor, logger: logger)
    }

    /// The current value; assigning writes an override (a refused value writes nothing and is reported).
    @inlinable
    public var wrappedValue: T {
        get { store.value(key) }
        nonmutating set {
            do {
                try projectedValue.set(newValue)
            } catch {
                logger.warning("assignment to \(key.key) refused: \(error)", metadata: ["key": "\(key.key)"])
            }
        }
    }

    /// The preference's stream, details, reset and throwing setter.
    @inlinable
    public var projectedValue: PreferenceHandle<T, Store> {
        PreferenceHandle(key: key, store: store, actor: actor, lastError: lastError)
    }
}

/// What `$property` gives for a ``Preference``: its value's stream and details, a throwing setter, reset, and the
/// last refused assignment.
public struct PreferenceHandle<T: FlagValue, Store: PreferenceStore>: Sendable {
    /// The key.
    public let key: FlagKey<T>
    /// The board.
    public let store: Store
    let actor: String
    private let error: Locked<(any Error)?>

    @usableFromInline
    init(key: FlagKey<T>, store: Store, actor: String, lastError: Locked<(any Error)?>) {
        self.key = key
        self.store = store
        self.actor = actor
        error = lastError
    }

    /// The value now, then each change of it (``FlagReader/updates(of:)``).
    public var updates: AsyncStream<T> { store.updates(of: key) }

    /// The value with how it was chosen.
    public var details: Details<T> { store.details(key) }

    /// Writes `value`, or throws why it was refused (and writes nothing). Clears ``lastError`` when it succeeds.
    public func set(_ value: T) throws {
        do {
            try store.setOverride(key.key, to: value.flagValue, actor: actor)
            error.withLock { $0 = nil }
        } catch {
            self.error.withLock { $0 = error }
            throw error
        }
    }

    /// Removes the override, so the value underneath (the definition's, or the server's) applies again.
    public func reset() throws {
        try store.resetOverride(key.key, actor: actor)
    }

    /// Why the last assignment was refused; `nil` after one that was written.
    public var lastError: (any Error)? { error.withLock { $0 } }
}
