import Hummingbird
import HummingbirdCore
import Locking
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The server's connections: Hummingbird's HTTP/1 channel behind a connection cap, with a header and an idle
/// timeout (``ConnectionTimeoutHandler``), and event streams served without a task
/// (``EventStreamConnectionHandler``).
///
/// A connection within the cap gets Hummingbird's HTTP/1 pipeline with ``ConnectionTimeoutHandler`` before it (it
/// sees the bytes), ``RequestBoundaryHandler`` after the HTTP decoder (it sees the requests) and
/// ``EventStreamConnectionHandler`` last, which decides at the first request whether the connection goes on as
/// Hummingbird's — its async wrapper made then — or serves an event stream itself. One past the cap gets
/// ``OverCapacityHandler`` alone: a 503 without reading the request.
struct GuardedHTTP1Channel: ServerChildChannel {
    /// A connection: what serves it, decided at its first request — Hummingbird's HTTP channel, or `nil` when it
    /// is refused, serves an event stream in its pipeline, or ends before a request could be read.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let http: EventLoopFuture<HTTP1Channel.Value?>
    }

    let http1: HTTP1Channel
    /// Answers the event-stream requests that connections serve themselves.
    let router: RouterResponder<ServerContext>
    let policy: ConnectionPolicy

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connections = policy.connections
        guard connections.admit() else {
            policy.metrics.recordConnectionRefused()
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(OverCapacityHandler(retryAfter: 1))
                return Value(channel: channel, http: channel.eventLoop.makeSucceededFuture(nil))
            }
        }
        channel.closeFuture.whenComplete { [connections] _ in connections.release() }
        return channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.reads)
            let operations = channel.pipeline.syncOperations
            // First, so it sees bytes before the HTTP decoder does.
            let timeouts = ConnectionTimeoutHandler(
                headerTimeout: policy.headerTimeout, idleTimeout: policy.idleTimeout, metrics: policy.metrics,
                logger: logger)
            try operations.addHandler(timeouts)
            // Hummingbird's HTTP/1 pipeline as `HTTP1Channel.setup` makes it from the channel's configuration,
            // without the async wrapper, which ``EventStreamConnectionHandler`` makes when the connection needs it.
            let configuration = http1.configuration
            try operations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: Self.decoderLimits(configuration.httpDecoder))
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try operations.addHandlers(configuration.additionalChannelHandlers())
            try operations.addHandler(RequestBoundaryHandler(reportingTo: timeouts))
            try operations.addHandler(HTTPConnectionStateHandler(
                idleTimeout: configuration.idleTimeout.map { Duration($0) }, logger: logger))
            let decision = channel.eventLoop.makePromise(of: HTTP1Channel.Value?.self)
            do {
                try operations.addHandler(EventStreamConnectionHandler(responder: router, decision: decision,
                                                                       logger: logger))
            } catch {
                decision.succeed(nil)  // a promise is never dropped unanswered
                throw error
            }
            return Value(channel: channel, http: decision.futureResult)
        }
    }

    /// How each connection sizes its reads. NIO keeps a connection's last read buffer for the next read, so its
    /// first size is what an idle connection — an event stream — holds for its whole life: 512 bytes, where NIO's
    /// default is 2 KB. A request head is a few hundred bytes; larger reads double the size, up to 64 KB.
    static let reads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536)

    /// NIO's decoder limits from Hummingbird's decoder configuration.
    static func decoderLimits(
        _ configuration: HTTP1Channel.Configuration.DecoderConfiguration
    ) -> NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = configuration.maxHeaderFieldSize
        limits.maxHeaderListSize = configuration.maxHeaderListSize
        limits.maxHeaderFieldCount = configuration.maxHeaderFieldCount
        return limits
    }

    func handle(value: Value, logger: Logger) async {
        // The connection's task ends here when the connection serves an event stream (or is refused). Cancelled
        // before the first request, it closes the connection, as Hummingbird's own handling does.
        let http = await withTaskCancellationHandler {
            try? await value.http.get()
        } onCancel: {
            value.channel.close(promise: nil)
        }
        guard let http else { return }
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
