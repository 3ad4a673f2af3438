import HummingbirdCore
import Locking
import Logging
import NIOCore

/// The server's connections: Hummingbird's HTTP/1 channel behind a connection cap, with a header and an idle
/// timeout (``ConnectionTimeoutHandler``).
///
/// A connection within the cap gets Hummingbird's pipeline with ``ConnectionTimeoutHandler`` before it (it sees
/// the bytes) and ``RequestBoundaryHandler`` after the HTTP decoder (it sees the requests). One past the cap gets
/// ``OverCapacityHandler`` alone: a 503 without reading the request.
struct GuardedHTTP1Channel: ServerChildChannel {
    /// A connection: Hummingbird's HTTP parts when it is served, nothing when it is refused.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let http: HTTP1Channel.Value?
    }

    let http1: HTTP1Channel
    let policy: ConnectionPolicy

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connections = policy.connections
        guard connections.admit() else {
            policy.metrics.recordConnectionRefused()
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(OverCapacityHandler(retryAfter: 1))
                return Value(channel: channel, http: nil)
            }
        }
        channel.closeFuture.whenComplete { [connections] _ in connections.release() }
        do {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.reads)
            // First, so it sees bytes before the HTTP decoder does.
            try channel.pipeline.syncOperations.addHandler(ConnectionTimeoutHandler(
                headerTimeout: policy.headerTimeout, idleTimeout: policy.idleTimeout, metrics: policy.metrics,
                logger: logger))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { http in
            // Between the HTTP decoder and Hummingbird's own connection handler, the last before the channel's
            // async sequence.
            let operations = channel.pipeline.syncOperations
            let timeouts = try operations.handler(type: ConnectionTimeoutHandler.self)
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(RequestBoundaryHandler(reportingTo: timeouts), position: .before(state))
            return Value(channel: channel, http: http)
        }
    }

    /// How each connection sizes its reads. NIO keeps a connection's last read buffer for the next read, so its
    /// first size is what an idle connection — an event stream — holds for its whole life: 512 bytes, where NIO's
    /// default is 2 KB. A request head is a few hundred bytes; larger reads double the size, up to 64 KB.
    static let reads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536)

    func handle(value: Value, logger: Logger) async {
        guard let http = value.http else { return }
        await http1.handle(value: http, logger: logger)
    }
}

/// How many connections are open, against the cap; shared by every event loop.
final class OpenConnections: Sendable {
    /// The most served at once.
    let cap: Int
    private let count = Locked(0)
    private let metrics: ServerMetrics

    init(cap: Int, metrics: ServerMetrics) {
        self.cap = cap
        self.metrics = metrics
    }

    /// Counts a new connection in when there is room; `false`: it must be refused.
    func admit() -> Bool {
        // The gauge is set under the lock, so that connections opening and closing at once record in order.
        count.withLock { count in
            guard count < cap else { return false }
            count += 1
            metrics.recordOpenConnections(count)
            return true
        }
    }

    /// Counts a connection out.
    func release() {
        count.withLock { count in
            count -= 1
            metrics.recordOpenConnections(count)
        }
    }

    /// How many are open.
    var current: Int { count.withLock { $0 } }
}
