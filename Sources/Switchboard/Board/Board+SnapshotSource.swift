extension Board: SnapshotSource {
    /// Calls `handler` with each publication's new snapshot and the keys of its ``Publication/changes``; status
    /// events are not passed on.
    public func subscribeToSnapshots(
        _ handler: @escaping @Sendable (_ snapshot: Snapshot, _ changedKeys: [String]) -> Void
    ) -> ChangeSubscription {
        subscribe { event in
            guard case .published(let publication) = event else { return }
            handler(publication.new, publication.changes.map(\.key))
        }
    }
}
