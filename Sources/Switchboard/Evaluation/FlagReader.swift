/// What every board answers: typed lookups that never throw, their details, and a stream of changes.
///
/// ``Board`` reads local definitions; `RemoteBoard` (in `SwitchboardRemote`) reads an OFREP server. Code that
/// takes `some FlagReader` works with either, and so do the typed keys `switchboard generate` writes:
///
/// ```swift
/// func render(_ flags: some FlagReader) {
///     if flags.value(Flags.Checkout.newFlow) { ... }
/// }
/// ```
///
/// A reader answers for one evaluation context: a local board for the empty context unless a lookup passes one,
/// a remote board for the context it was given.
public protocol FlagReader: Sendable {
    /// The value of `key` as `T`, or `defaultValue` when the key is missing or its value does not fit.
    func value<T: FlagValue>(_ key: String, default defaultValue: T) -> T

    /// The value with everything about how it was chosen; on a missing key or a type mismatch, the caller's
    /// default with the reason `ERROR` and an error code.
    func details<T: FlagValue>(
        _ key: String, as type: T.Type, default defaultValue: T, context: EvaluationContext
    ) -> Details<T>

    /// Every change to a value from now on. Each access makes a new stream.
    var changes: AsyncStream<Board.Change> { get }
}

extension FlagReader {
    /// The value of a typed key, or its default.
    @inlinable
    public func value<T: FlagValue>(_ key: FlagKey<T>) -> T {
        value(key.key, default: key.defaultValue)
    }

    /// The details of a typed key.
    @inlinable
    public func details<T: FlagValue>(_ key: FlagKey<T>) -> Details<T> {
        details(key.key, as: T.self, default: key.defaultValue, context: .empty)
    }

    /// The details of a key, for the reader's own context.
    @inlinable
    public func details<T: FlagValue>(_ key: String, default defaultValue: T) -> Details<T> {
        details(key, as: T.self, default: defaultValue, context: .empty)
    }

    /// A bool, or `defaultValue` when the key is missing or not a bool.
    @inlinable
    public func bool(_ key: String, default defaultValue: Bool) -> Bool { value(key, default: defaultValue) }

    /// An int, or `defaultValue`.
    @inlinable
    public func int(_ key: String, default defaultValue: Int) -> Int { value(key, default: defaultValue) }

    /// A double (ints widen), or `defaultValue`.
    @inlinable
    public func double(_ key: String, default defaultValue: Double) -> Double { value(key, default: defaultValue) }

    /// A string, or `defaultValue`.
    @inlinable
    public func string(_ key: String, default defaultValue: String) -> String { value(key, default: defaultValue) }
}

extension Board: FlagReader {}

extension Details {
    /// Creates the details of a lookup; boards other than ``Board`` build theirs with it.
    public init(
        of key: String, value: T, variant: String? = nil, reason: Reason, layer: Layer? = nil,
        errorCode: ErrorCode? = nil, errorMessage: String? = nil
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.layer = layer
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}

extension Board.Change {
    /// Creates a change; boards other than ``Board`` report theirs with it.
    public init(of key: String, from old: Value?, to new: Value?, layer: Layer? = nil) {
        self.key = key
        self.old = old
        self.new = new
        self.layer = layer
    }
}
