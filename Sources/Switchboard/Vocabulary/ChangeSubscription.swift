import Locking

/// A registration of `subscribe(_:)`; cancelling or releasing it ends the deliveries.
public final class ChangeSubscription: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    /// Creates a registration that runs `cancel` once, when cancelled or released; boards other than `Board`
    /// hand out theirs with it.
    public init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Ends the deliveries.
    public func cancel() {
        let cancel = cancellation.withLock { value in
            defer { value = nil }
            return value
        }
        cancel?()
    }

    deinit { cancel() }
}
