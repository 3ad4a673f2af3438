/// A board that hands out its values at one moment and announces every new moment: what an adapter needs that
/// reads many keys together or follows changes, beyond ``FlagReader``'s lookups.
///
/// ``Board`` adopts it with ``Snapshot``; `RemoteBoard` (in `SwitchboardRemote`) with `RemoteSnapshot`. The
/// swift-configuration provider in `SwitchboardConfiguration` reads either through it:
///
/// ```swift
/// func printLimit(_ board: some SnapshotSource) {
///     let snapshot = board.snapshot
///     print(snapshot.value(forKey: "app.upload.max_mb", context: .empty) ?? "unset")
/// }
/// ```
public protocol SnapshotSource: Sendable {
    /// The board's view of one moment.
    associatedtype CurrentSnapshot: ValueSnapshot

    /// The snapshot in service now. Keep it only as long as the reads that must agree with each other.
    var snapshot: CurrentSnapshot { get }

    /// Calls `handler` with every new snapshot from now on, in order, after it is in service, with the keys whose
    /// value changed; until the subscription is cancelled or released. The handler runs on the thread that made
    /// the change and must not block.
    func subscribeToSnapshots(
        _ handler: @escaping @Sendable (_ snapshot: CurrentSnapshot, _ changedKeys: [String]) -> Void
    ) -> ChangeSubscription
}

/// Every value of a board at one moment: however the board changes meanwhile, two reads of one instance agree.
public protocol ValueSnapshot: AnyObject, Sendable {
    /// The value of `key` for `context`, or `nil` when no definition has the key or it has no value.
    func value(forKey key: String, context: EvaluationContext) -> Value?

    /// The type the key's definition declares, when the snapshot has definitions (a remote one has only values).
    func declaredType(ofKey key: String) -> ValueType?
}

extension Snapshot: ValueSnapshot {
    /// The value of `key` for `context`, through the same path as the board's typed lookups.
    public func value(forKey key: String, context: EvaluationContext) -> Value? {
        registry.position(of: key).flatMap { value(at: $0, context: context) }
    }

    /// The `type:` of the key's definition.
    public func declaredType(ofKey key: String) -> ValueType? {
        registry[key]?.type
    }
}
