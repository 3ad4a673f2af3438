import Locking

/// The one place a board's changes come from: every event goes to every subscriber, in order. Subscribers are
/// registered and removed under a lock; events are delivered outside it, so a subscriber may subscribe, cancel or
/// read the board from its handler.
///
/// ``Board`` publishes ``BoardEvent``s through one; `RemoteBoard` (in `SwitchboardRemote`) its own publications.
/// Streams of changes (``stream(bufferingNewest:_:)``) are built on the handlers, so there is one list of
/// subscribers per board and one order of delivery.
///
/// Observers of one key (``observe(_:_:)``) are kept apart, indexed by key: an event reaches the observers of the
/// keys it changed and no others, so what a write costs does not grow with the observers of other keys.
package final class ChangePublisher<Event: Sendable>: Sendable {
    /// What a subscriber is called with.
    package typealias Handler = @Sendable (Event) -> Void

    private struct Subscriber {
        var handler: Handler
        /// Called once when the publisher finishes (streams end there).
        var onFinish: (@Sendable () -> Void)?
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var next: UInt64 = 0
        var finished = false
        /// Observers of one key each, by key.
        var observers: [String: [UInt64: @Sendable () -> Void]] = [:]
        var observerCount = 0
    }

    private let state = Locked(State())
    private let changedKeys: @Sendable (Event) -> [String]

    /// Creates a publisher with no subscribers; `changedKeys` says which keys an event changed, for the observers
    /// of single keys.
    package init(changedKeys: @escaping @Sendable (Event) -> [String]) {
        self.changedKeys = changedKeys
    }

    /// Calls `onChange` after every event that changed `key` (its value, or what its definition serves), until the
    /// returned subscription is cancelled or released. It runs on the thread that sent the event and must not
    /// block.
    package func observe(_ key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeSubscription {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.observers[key, default: [:]][state.next] = onChange
            state.observerCount += 1
            return state.next
        }
        return ChangeSubscription { [weak self] in
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
        let id = state.withLock { state -> UInt64? in
            guard !state.finished else { return nil }
            state.next += 1
            state.subscribers[state.next] = Subscriber(handler: handler, onFinish: onFinish)
            return state.next
        }
        guard let id else {
            onFinish?()
            return ChangeSubscription {}
        }
        return ChangeSubscription { [weak self] in
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

    /// Delivers an event to every handler, in the order they subscribed. Callers serialize their sends, so every
    /// subscriber sees events in the order they happened.
    package func send(_ event: Event) {
        let keys = changedKeys(event)
        let (handlers, observers) = state.withLock { state in
            let handlers = state.subscribers.isEmpty
                ? [] : state.subscribers.sorted { $0.key < $1.key }.map(\.value.handler)
            var observers: [@Sendable () -> Void] = []
            if !state.observers.isEmpty {
                for key in keys { if let forKey = state.observers[key] { observers.append(contentsOf: forKey.values) } }
            }
            return (handlers, observers)
        }
        for handler in handlers { handler(event) }
        for observer in observers { observer() }
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
            return state.subscribers.sorted { $0.key < $1.key }.compactMap(\.value.onFinish)
        }
        for onFinish in finishing { onFinish() }
    }

    /// How many handlers are registered.
    package var count: Int { state.withLock { $0.subscribers.count } }

    /// How many observers of single keys are registered.
    package var observerCount: Int { state.withLock { $0.observerCount } }
}
