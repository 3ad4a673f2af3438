public import Switchboard

extension RemoteBoard: SnapshotSource {
    /// The answer in service now: every key's value from one bulk evaluation (or the cache), for ``context``.
    public var snapshot: RemoteSnapshot { core.cell.snapshot }

    /// Calls `handler` with every new answer whose values differ from the last one, with the keys that changed.
    public func subscribeToSnapshots(
        _ handler: @escaping @Sendable (_ snapshot: RemoteSnapshot, _ changedKeys: [String]) -> Void
    ) -> ChangeSubscription {
        core.subscribeToSnapshots(handler)
    }
}

extension RemoteSnapshot: ValueSnapshot {
    /// The server's value for `key`; `nil` when the answer has no such key or the server reported an error for it.
    ///
    /// The answer was evaluated for the board's own context, so `context` is not used: switch with
    /// ``RemoteBoard/setContext(_:)``.
    public func value(forKey key: String, context: EvaluationContext) -> Value? {
        value(key)
    }

    /// Always `nil`: OFREP answers carry values, not the definitions' types.
    public func declaredType(ofKey key: String) -> ValueType? {
        nil
    }
}
