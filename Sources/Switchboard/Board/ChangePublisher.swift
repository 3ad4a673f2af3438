import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place a board's changes come from: every event goes to every subscriber, in order, with its values,
/// and no handler runs while a board lock is held.
///
/// A board ``enqueue(_:)``s each event while it still holds its own lock (so events queue in the order they
/// happened), and calls ``deliver()`` once it has released every lock. Delivery runs the handlers on that thread,
/// before the write that caused the event returns. A handler may read the board, write to it, subscribe or cancel:
/// a write made inside a handler is queued and delivered by the same loop after that handler returns, so each
/// subscriber still sees the changes in the order they happened. One thread delivers at a time; a writer on another
/// thread whose event that thread is delivering waits until it has been delivered, so that every handler has run
/// when `set` returns. A write made inside a handler never waits: when another thread is delivering for that
/// board (a handler of board A writes to board B while B's handler writes to A), that thread delivers it, so two
/// boards mirroring each other cannot deadlock. (A handler must not wait for a write on another thread.)
///
/// ``Board`` publishes ``BoardEvent``s through one; `RemoteBoard` (in `SwitchboardRemote`) its own publications.
/// Streams of changes (``stream(bufferingNewest:_:)``) are built on the handlers, so there is one list of
/// subscribers per board and one order of delivery.
///
/// Observers of one key (``observe(_:_:)``) are kept apart, indexed by key: an event reaches the observers of the
/// keys it changed and no others, with that key's ``ValueChange``, so what a write costs does not grow with the
/// observers of other keys.
package final class ChangePublisher<Event: Sendable>: Sendable {
    /// What a subscriber is called with.
    package typealias Handler = @Sendable (Event) -> Void
    /// What an observer of one key is called with.
    package typealias Observer = @Sendable (ValueChange) -> Void

    /// One registration: its callback, and whether it is still wanted. An event queued before a cancellation is
    /// not delivered after it.
    private final class Registration<Callback: Sendable>: Sendable {
        let callback: Callback
        let onFinish: (@Sendable () -> Void)?
        private let active = Atomic<Bool>(true)

        init(_ callback: Callback, onFinish: (@Sendable () -> Void)? = nil) {
            self.callback = callback
            self.onFinish = onFinish
        }

        var isActive: Bool { active.load(ordering: .acquiring) }
        func end() { active.store(false, ordering: .releasing) }
    }

    /// An event waiting to be delivered, with the registrations it goes to (those registered when it happened).
    private struct Pending {
        var event: Event
        var handlers: [Registration<Handler>]
        var observers: [(Registration<Observer>, ValueChange)]
    }

    private struct State {
        var subscribers: [UInt64: Registration<Handler>] = [:]
        var next: UInt64 = 0
        var finished = false
        /// Observers of one key each, by key.
        var observers: [String: [UInt64: Registration<Observer>]] = [:]
        var observerCount = 0
        /// Events not yet delivered, oldest first.
        var queue: [Pending] = []
        /// How many events were queued, and how many of them delivered.
        var enqueued: UInt64 = 0
        var delivered: UInt64 = 0
        /// The thread delivering now, if one is.
        var deliverer: pthread_t?
    }

    private let state = LockedCondition(State())
    private let changes: @Sendable (Event) -> [ValueChange]

    /// Creates a publisher with no subscribers; `changes` says which keys an event changed and how, for the
    /// observers of single keys.
    package init(changes: @escaping @Sendable (Event) -> [ValueChange]) {
        self.changes = changes
    }

    /// Calls `onChange` with the key's change after every event that changed `key` (its value, or what its
    /// definition serves), until the returned subscription is cancelled or released. It runs as
    /// ``ChangePublisher`` says: on the thread that made the change, outside every board lock.
    package func observe(_ key: String, _ onChange: @escaping Observer) -> ChangeSubscription {
        let registration = Registration(onChange)
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.observers[key, default: [:]][state.next] = registration
            state.observerCount += 1
            return state.next
        }
        return ChangeSubscription { [weak self] in
            registration.end()
            self?.state.withLock { state in
                guard state.observers[key]?.removeValue(forKey: id) != nil else { return }
                state.observerCount -= 1
                if state.observers[key]?.isEmpty == true { state.observers[key] = nil }
            }
        }
    }

    /// Registers a handler until the returned subscription is cancelled or released. `onFinish` runs once when
    /// the publisher finishes; after that, a new registration finishes at once.
    package func subscribe(
        _ handler: @escaping Handler, onFinish: (@Sendable () -> Void)? = nil
    ) -> ChangeSubscription {
        let registration = Registration(handler, onFinish: onFinish)
        let id = state.withLock { state -> UInt64? in
            guard !state.finished else { return nil }
            state.next += 1
            state.subscribers[state.next] = registration
            return state.next
        }
        guard let id else {
            onFinish?()
            return ChangeSubscription {}
        }
        return ChangeSubscription { [weak self] in
            registration.end()
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
    }

    /// A stream of what `transform` makes of each event (an empty array yields nothing), from now on, until the
    /// consuming task ends it or the publisher finishes. Keeps the newest `limit` elements when the consumer
    /// falls behind.
    package func stream<Element: Sendable>(
        bufferingNewest limit: Int = 10_000, _ transform: @escaping @Sendable (Event) -> [Element]
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let subscription = subscribe({ event in
            for element in transform(event) { continuation.yield(element) }
        }, onFinish: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Queues an event for every handler registered now, and for the observers of the keys it changed. The caller
    /// may hold its own lock (that is how events queue in the order they happened), and calls ``deliver()`` after
    /// releasing it.
    package func enqueue(_ event: Event) {
        let changes = changes(event)
        state.withLock { state in
            guard !state.finished else { return }
            let handlers = state.subscribers.isEmpty
                ? [] : state.subscribers.sorted { $0.key < $1.key }.map(\.value)
            var observers: [(Registration<Observer>, ValueChange)] = []
            if !state.observers.isEmpty {
                for change in changes {
                    guard let forKey = state.observers[change.key] else { continue }
                    for (_, registration) in forKey.sorted(by: { $0.key < $1.key }) {
                        observers.append((registration, change))
                    }
                }
            }
            state.queue.append(Pending(event: event, handlers: handlers, observers: observers))
            state.enqueued += 1
        }
    }

    /// Delivers every queued event, in order, on this thread; called with no board lock held. Inside a handler it
    /// returns at once (the loop that called the handler delivers what the handler queued, after it returns);
    /// while another thread delivers, it waits until the events queued before this call have been delivered.
    package func deliver() {
        let me = pthread_self()
        // Inside a handler of any publisher: never wait, or two boards whose handlers write to each other could
        // each wait for the other's delivering thread.
        let insideHandler = DeliveringThread.depth > 0
        var target: UInt64?
        let delivers = state.wait { state -> Bool? in
            let wanted = target ?? state.enqueued
            target = wanted
            if state.delivered >= wanted { return false }
            if let deliverer = state.deliverer {
                return pthread_equal(deliverer, me) != 0 || insideHandler ? false : nil
            }
            state.deliverer = me
            return true
        }
        guard delivers else { return }
        DeliveringThread.depth += 1
        defer { DeliveringThread.depth -= 1 }
        while true {
            let next = state.withLock { state -> Pending? in
                guard !state.queue.isEmpty else {
                    state.deliverer = nil
                    return nil
                }
                return state.queue.removeFirst()
            }
            guard let next else { return }
            for handler in next.handlers where handler.isActive { handler.callback(next.event) }
            for (observer, change) in next.observers where observer.isActive { observer.callback(change) }
            state.withLock { $0.delivered += 1 }
        }
    }

    /// Queues an event and delivers it: for a publisher whose caller holds no lock of its own.
    package func send(_ event: Event) {
        enqueue(event)
        deliver()
    }

    /// Removes every subscriber and ends their streams; later subscriptions end at once.
    package func finish() {
        let finishing = state.withLock { state -> [@Sendable () -> Void] in
            state.finished = true
            defer {
                state.subscribers = [:]
                state.observers = [:]
                state.observerCount = 0
            }
            for registration in state.subscribers.values { registration.end() }
            for forKey in state.observers.values { for registration in forKey.values { registration.end() } }
            return state.subscribers.sorted { $0.key < $1.key }.compactMap(\.value.onFinish)
        }
        for onFinish in finishing { onFinish() }
    }

    /// How many handlers are registered.
    package var count: Int { state.withLock { $0.subscribers.count } }

    /// How many observers of single keys are registered.
    package var observerCount: Int { state.withLock { $0.observerCount } }
}

/// How deep the current thread is in delivering changes (handlers of one publisher calling a write that delivers
/// for another): a thread-local count, so a write made inside any handler knows not to wait.
private enum DeliveringThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var depth: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
