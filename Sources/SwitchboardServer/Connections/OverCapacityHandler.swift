import NIOCore

/// Answers a connection past the cap: a 503 with `Retry-After` as soon as it is accepted, then the server's side
/// is closed.
///
/// The request is never read, so the connection costs no parsing and no task. What the client sends meanwhile is
/// read and dropped until it closes its side — it does after a `Connection: close` response — or for a second at
/// most: closing with unread bytes would send a reset, which can reach the client before the 503 and hide it.
final class OverCapacityHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a refused connection is kept to read what its client sends, at most.
    static let linger: TimeAmount = .seconds(1)

    /// The answer, in seconds after which to try again.
    static func response(retryAfter: Int) -> ByteBuffer {
        let body = "the server is at its connection limit; try again shortly.\n"
        return ByteBuffer(string: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(retryAfter)\r\n"
            + "Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "\r\n" + body)
    }

    private let retryAfter: Int
    private var answered = false
    private var lingerTimer: Scheduled<Void>?

    init(retryAfter: Int) {
        self.retryAfter = retryAfter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context: context)
        context.fireChannelActive()
    }

    private func answer(context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        context.writeAndFlush(wrapOutboundOut(Self.response(retryAfter: retryAfter))).assumeIsolated()
            .whenComplete { _ in context.close(mode: .output, promise: nil) }
        lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) {
            context.close(promise: nil)
        }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Dropped: the request is not served.
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
