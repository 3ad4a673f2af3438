import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection that waits too long (``ConnectionDeadlines``): first in the pipeline, where it sees every
/// byte as it arrives — a request head that trickles in never reaches the HTTP decoder's output — and can write a
/// 408 as raw bytes.
///
/// It learns where requests begin and end from ``RequestBoundaryHandler``, which sits after the HTTP decoder. Both
/// run on the connection's event loop, so they share state without locks. One timer per connection at most, set
/// for the nearest deadline.
final class ConnectionTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What a connection whose head did not arrive in time is told before it is closed.
    static let requestTimeout = ByteBuffer(string: """
        HTTP/1.1 408 Request Timeout\r
        Connection: close\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Length: 41\r
        \r
        the request head did not arrive in time.\n
        """)

    private var deadlines: ConnectionDeadlines
    private let metrics: ServerMetrics
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    private var closing = false

    init(headerTimeout: Duration, idleTimeout: Duration, metrics: ServerMetrics, logger: Logger) {
        deadlines = ConnectionDeadlines(headerTimeout: TimeAmount(headerTimeout), idleTimeout: TimeAmount(idleTimeout),
                                        start: .now())
        self.metrics = metrics
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        reconsider()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        closing = true
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if unwrapInboundIn(data).readableBytes > 0 {
            deadlines.bytesRead(at: .now())
        }
        context.fireChannelRead(data)
        reconsider()
    }

    /// From ``RequestBoundaryHandler``: a request head was decoded.
    func headReceived() {
        deadlines.headReceived()
        reconsider()
    }

    /// From ``RequestBoundaryHandler``: a request's end was decoded.
    func requestReceived() {
        deadlines.requestReceived(at: .now())
        reconsider()
    }

    /// From ``RequestBoundaryHandler``: a response ended.
    func responseSent() {
        deadlines.responseSent(at: .now())
        reconsider()
    }

    /// Acts on the verdict: closes, or makes sure a timer fires no later than the next deadline.
    private func reconsider() {
        guard let context, !closing else { return }
        switch deadlines.verdict(at: .now()) {
        case .close(let reason, let canRespond):
            close(context: context, reason: reason, canRespond: canRespond)
        case .checkAt(let deadline):
            // A timer due earlier fires, finds nothing to do, and sets itself again: cheaper than rescheduling on
            // every byte.
            if let timer, timer.deadline <= deadline { return }
            cancelTimer()
            let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                timer = nil
                reconsider()
            }
            timer = (task, deadline)
        case .none:
            cancelTimer()
        }
    }

    private func close(context: ChannelHandlerContext, reason: ConnectionDeadlines.Reason, canRespond: Bool) {
        closing = true
        cancelTimer()
        metrics.recordConnectionClosed(by: reason)
        logger.debug("closing a connection", metadata: [
            "reason": "\(reason.rawValue)", "peer": "\(context.channel.remoteAddress?.description ?? "?")",
        ])
        if canRespond {
            context.writeAndFlush(wrapOutboundOut(Self.requestTimeout)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }

    private func cancelTimer() {
        timer?.task.cancel()
        timer = nil
    }
}

/// Tells a ``ConnectionTimeoutHandler`` where requests begin and end: after the HTTP decoder, it sees request
/// heads and ends as they are decoded and response ends as they are written.
final class RequestBoundaryHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeouts: ConnectionTimeoutHandler

    init(reportingTo timeouts: ConnectionTimeoutHandler) {
        self.timeouts = timeouts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: timeouts.headReceived()
        case .body: break
        case .end: timeouts.requestReceived()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            timeouts.responseSent()
        }
        context.write(data, promise: promise)
    }
}
