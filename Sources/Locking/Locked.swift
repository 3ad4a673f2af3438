#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value only one thread at a time may use: ``withLock(_:)`` runs its closure with the value while holding a
/// `pthread_mutex_t`.
///
/// Switchboard's one lock, used where `Synchronization.Mutex` would otherwise be. On Linux, Swift 6.3's `Mutex`
/// locks with atomics and futex calls that ThreadSanitizer does not see, so TSan reports every access made under
/// it as a data race, and a real race could not be told from those. The sanitizers intercept pthread mutexes, so
/// with this lock `scripts/sanitizers.sh thread` reports only real races. Uncontended, a lock and an unlock are an
/// atomic compare-and-swap each, as with `Mutex`; no lookup on the hot path takes a lock.
///
/// Like `Mutex`, the value is transferred in with `sending` and results leave with `sending`, so a lock never
/// shares a non-`Sendable` value between isolation domains.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Behind a pointer, not a stored property: a stored `var` gets Swift's dynamic exclusivity checks, which
    // ThreadSanitizer reports as accesses of their own, and for a zero-sized value (`Locked(())`) at the
    // object's own address, which every caller reads unlocked. Plain memory behind a pointer is checked as
    // plain memory, guarded by the mutex.
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// A lock over `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = makeErrorCheckingMutex()
        storage = .allocate(capacity: 1)
        storage.initialize(to: initialValue)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns. Not reentrant: calling
    /// `withLock` on the same lock inside `body` stops the program, as with `Mutex`.
    @inlinable
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "Locked.withLock called again inside its own body (pthread error \(status))")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}

/// A new error-checking pthread mutex: locking it again on the thread that holds it fails (and the callers stop the
/// program) instead of hanging, as `Mutex` stops with "Recursive call to lock Mutex". Deinitialize and deallocate
/// it with `pthread_mutex_destroy` and `deallocate()`.
func makeErrorCheckingMutex() -> UnsafeMutablePointer<pthread_mutex_t> {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    let status = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(status == 0, "pthread_mutex_init failed with \(status)")
    return mutex
}
