import Locking
public import Observation

/// A board for Observation: reading a value through the model inside `withObservationTracking` (or a SwiftUI
/// view's body on Apple platforms, or `Observations` on Linux) registers interest in that key alone, and a change
/// to that key's value, from any source, triggers it. Keys never read through the model cost nothing.
///
/// ```swift
/// let model = BoardModel(board)
/// withObservationTracking {
///     render(model[Prefs.Camera.mode])           // interest in `camera.mode` only
/// } onChange: {
///     scheduleRender()
/// }
/// ```
///
/// Make one model per board and share it; it adds nothing to plain lookups on the board itself. It works over any
/// ``FlagReader``: a ``Board``, or a remote board.
///
/// Observation calls `onChange` where the board delivers the change (see ``FlagReader/observe(_:_:)``): on the
/// thread that made it, outside every board lock; `onChange` may read and write the board. Over a board that takes
/// writes (a ``PreferenceStore``), the model writes too: ``set(_:to:actor:)`` and ``reset(_:actor:)``.
public final class BoardModel<Reader: FlagReader>: Observable, Sendable {
    /// The board the model reads.
    public let board: Reader
    private let registrar = ObservationRegistrar()
    /// One board observation per key read through the model, made at its first read.
    private let observations = Locked<[String: ChangeSubscription]>([:])

    /// Creates a model over a board.
    public init(_ board: Reader) {
        self.board = board
    }

    /// The value of a typed key, registering interest in it with Observation.
    public subscript<T: FlagValue>(key: FlagKey<T>) -> T {
        track(key.key)
        return board.value(key)
    }

    /// The value of a key by name, registering interest in it with Observation.
    public func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T {
        track(key)
        return board.value(key, default: defaultValue)
    }

    /// The details of a typed key, registering interest in it with Observation.
    public func details<T: FlagValue>(_ key: FlagKey<T>) -> Details<T> {
        track(key.key)
        return board.details(key)
    }

    /// How many keys the model follows (those read through it so far).
    public var observedKeyCount: Int { observations.withLock { $0.count } }

    /// Tells Observation that `key` is read, and follows the key on the board from its first read.
    private func track(_ key: String) {
        registrar.access(self, keyPath: \.[observing: key])
        let isNew = observations.withLock { $0[key] == nil }
        guard isNew else { return }
        let subscription = board.observe(key) { [weak self] _ in self?.changed(key) }
        let kept = observations.withLock { observations -> Bool in
            guard observations[key] == nil else { return false }
            observations[key] = subscription
            return true
        }
        if !kept { subscription.cancel() }
    }

    private func changed(_ key: String) {
        registrar.withMutation(of: self, keyPath: \.[observing: key]) {}
    }

    /// Observation's handle on one key: a key path per key, so interest and changes are per key.
    subscript(observing key: String) -> Int { 0 }
}

extension BoardModel where Reader: PreferenceStore {
    /// Writes an override of a typed key through the board's own checks (for a ``Board``: validated, persisted
    /// and audited); the change reaches every reader of the key, this model's included.
    ///
    /// - Throws: the board's refusal (for a ``Board``, ``Board/SetError``); nothing is written then.
    public func set<T: FlagValue>(_ key: FlagKey<T>, to value: T, actor: String = "app") throws {
        try board.setOverride(key.key, to: value.flagValue, actor: actor)
    }

    /// Removes the override of a typed key, so the value underneath applies again.
    ///
    /// - Throws: the board's refusal; nothing is written then.
    public func reset<T: FlagValue>(_ key: FlagKey<T>, actor: String = "app") throws {
        try board.resetOverride(key.key, actor: actor)
    }
}
