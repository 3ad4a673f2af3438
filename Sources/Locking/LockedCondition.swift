#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``Locked`` value that threads can also wait on: ``wait(until:)`` sleeps until another thread's
/// ``withLock(_:)`` brings the value to a state the waiter is looking for. A pthread mutex and condition variable,
/// so ThreadSanitizer sees both (see ``Locked``).
public final class LockedCondition<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let storage: UnsafeMutablePointer<Value>

    /// A lock and a condition over `initialValue`.
    public init(_ initialValue: Value) {
        mutex = makeErrorCheckingMutex()
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        storage = .allocate(capacity: 1)
        storage.initialize(to: initialValue)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiter to look at it again. Not reentrant,
    /// as ``Locked/withLock(_:)``.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "LockedCondition.withLock called again inside its own body (pthread error \(status))")
        defer {
            pthread_mutex_unlock(mutex)
            pthread_cond_broadcast(condition)
        }
        return try body(&storage.pointee)
    }

    /// Runs `ready` with exclusive access to the value until it returns something, sleeping between tries until
    /// another thread changes the value, and returns that. Any change `ready` makes before it returns is kept.
    public func wait<Result>(until ready: (inout Value) -> Result?) -> Result {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "LockedCondition.wait called inside withLock (pthread error \(status))")
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = ready(&storage.pointee) { return result }
            pthread_cond_wait(condition, mutex)
        }
    }
}
