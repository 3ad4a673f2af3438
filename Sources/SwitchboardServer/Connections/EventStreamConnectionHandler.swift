import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Serves an event stream on a connection that opens with one, in the channel's pipeline: no task per stream.
///
/// Hummingbird gives each connection a task that reads its requests and writes its responses. A stream that
/// waits for hours keeps that task — and the task keeps what every request it ran needed on its stack, about
/// 16 KB — for nothing but waiting. So this handler, last in the pipeline, looks at a connection's first request
/// before any task sees it:
///
/// - `GET /ofrep/v1/events` or `GET /console/api/events`: the request runs through the server's router once, in a
///   short task (middleware, access check, metrics and tracing as for any request), and the route hands its stream
///   here (``EventStreamHandoff``). The handler writes the head and the opening, then each frame as the feed
///   announces it, from the channel's event loop, waiting for the last write before taking more: a slow reader
///   holds one batch, never a backlog. The connection's task has ended by then. A refusal (401, 403) or an error
///   is written as the router answered it, and the connection closed.
/// - anything else: the handler gives the connection to Hummingbird — the channel's async wrapper is made now,
///   after it, the request passed on — and leaves the pipeline. A stream asked for later on such a connection is
///   written by its task, as any response.
///
/// A client that goes away is noticed at once (the connection is read, so its end is seen), and its stream leaves
/// the feed; when the feed finishes (shutdown), the response ends and the connection closes.
final class EventStreamConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The paths served here.
    static let paths: Set<String> = ["/ofrep/v1/events", "/console/api/events"]

    private enum State {
        /// Before the first request head.
        case waiting
        /// The router is deciding.
        case routing
        /// Writing frames; `writing` while a write is not yet done.
        case streaming(ChangeFeed.Stream, writing: Bool)
        /// Answered otherwise, ended, or closed.
        case done
    }

    private let responder: RouterResponder<ServerContext>
    private let logger: Logger
    /// Tells the connection's task what to serve: Hummingbird's channel, or `nil` when this handler serves it.
    private let decision: EventLoopPromise<HTTP1Channel.Value?>
    private var state = State.waiting
    /// Whether ``decision`` is complete.
    private var decided = false
    /// Whether the client closed its side while the router was deciding: it still gets a refusal, not a stream.
    private var inputClosed = false
    private var context: ChannelHandlerContext?

    init(responder: RouterResponder<ServerContext>, decision: EventLoopPromise<HTTP1Channel.Value?>,
         logger: Logger) {
        self.responder = responder
        self.decision = decision
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// When the connection closes — Hummingbird's state handler before this one keeps `channelInactive` to itself —
    /// or when the handler leaves a connection it passed on.
    func handlerRemoved(context: ChannelHandlerContext) {
        decide(nil)
        end()
        self.context = nil
    }

    /// The connection is over for this handler: a stream stops waiting and leaves the feed.
    private func end() {
        if case .streaming(let stream, _) = state { stream.stopWaiting() }
        state = .done
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After the stream's head, the rest of its request (and anything more) is read and dropped: a body or
        // pipelined requests cost reading, never memory, and a stalled one meets the idle timeout.
        guard case .waiting = state, case .head(let head) = unwrapInboundIn(data) else { return }
        guard head.method == .get, let path = head.path, Self.paths.contains(String(Self.pathOnly(path))) else {
            passOn(data, context: context)
            return
        }
        state = .routing
        decide(nil)
        route(head, channel: context.channel)
    }

    /// The client closed its side. The server allows half-closed connections, so the channel stays open, but a
    /// connection here has nothing more to hear from it: one that sent no request, or a stream's reader gone
    /// away — without this, noticed only when a heartbeat fails to write. One that sent its request and closed
    /// its side still gets the router's answer if it is not a stream.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if case .routing = state {
            inputClosed = true
        } else {
            end()
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .waiting = state, error is HTTPParserError {
            // Before the first request was whole (a malformed head), as Hummingbird answers it: 400, and the
            // connection closed.
            state = .done
            decide(nil)
            let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            finishResponse(context: context)
            return
        }
        // A reset, or a malformed byte after the stream's request: the connection is over.
        end()
        decide(nil)
        context.close(promise: nil)
    }

    /// Tells the connection's task what to serve, once.
    private func decide(_ http: HTTP1Channel.Value?) {
        guard !decided else { return }
        decided = true
        decision.succeed(http)
    }

    /// Gives the connection to Hummingbird: its async wrapper after this handler, the request passed on to it, and
    /// this handler out of the pipeline.
    private func passOn(_ data: NIOAny, context: ChannelHandlerContext) {
        state = .done
        do {
            let http = try HTTP1Channel.Value(wrappingChannelSynchronously: context.channel,
                                             configuration: .init(isOutboundHalfClosureEnabled: true))
            // The wrapper lets go of its writer at `channelActive`, which this channel fired before the wrapper was
            // there; it is active, so the wrapper hears it now (only the handlers after this one do).
            context.fireChannelActive()
            context.fireChannelRead(data)
            decide(http)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } catch {
            decide(nil)
            context.close(promise: nil)
        }
    }

    /// Runs the request through the router in a task of its own, then answers on the event loop.
    private func route(_ head: HTTPRequest, channel: any Channel) {
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        // As Hummingbird dates every response it writes.
        let date = Self.httpDate()
        // As Hummingbird's requests log.
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        Task { [responder, logger] in
            let handoff = EventStreamHandoff()
            var context = ServerContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            context.eventStreamHandoff = handoff
            let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch {
                logger.debug("event stream request failed", metadata: ["error": "\(error)"])
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = date
            // A request span (with tracing on) ends here, when the route has answered, where a stream written by
            // a connection's task ends it when the stream ends.
            if let taken = handoff.takeStream(), response.status == .ok {
                response.headers[.contentLength] = nil
                let head = response.head
                handler.eventLoop.execute { handler.value.startStreaming(head: head, taken) }
            } else {
                let body = CollectedBody()
                let written = response.body
                try? await written.write(CollectingWriter(into: body))
                response.headers[.contentLength] = String(body.bytes.readableBytes)
                response.headers[.connection] = "close"
                let head = response.head
                let bytes = body.bytes
                handler.eventLoop.execute { handler.value.answer(head: head, body: bytes) }
            }
        }
    }

    /// Writes a response that is not a stream, and closes the connection.
    private func answer(head: HTTPResponse, body: ByteBuffer) {
        state = .done
        guard let context, context.channel.isActive else { return }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        finishResponse(context: context)
    }

    /// Ends the response and, once that is written, closes the connection.
    private func finishResponse(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Writes the head and the opening, then the stream's frames.
    private func startStreaming(head: HTTPResponse, _ taken: EventStreamHandoff.Taken) {
        guard let context, context.channel.isActive, case .routing = state else { return }
        guard !inputClosed else {
            // Its reader left while the router decided.
            state = .done
            context.close(promise: nil)
            return
        }
        state = .streaming(taken.stream, writing: true)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(taken.opening))).assumeIsolated().whenComplete { result in
            self.written(result)
        }
    }

    /// After a write: the next frames, if it succeeded.
    private func written(_ result: Result<Void, any Error>) {
        guard case .streaming(let stream, _) = state, let context else { return }
        guard case .success = result else {
            end()
            context.close(promise: nil)
            return
        }
        state = .streaming(stream, writing: false)
        pump(stream, context: context)
    }

    /// Writes what the feed has for the stream, or waits for news; ends the response when the feed has finished.
    private func pump(_ stream: ChangeFeed.Stream, context: ChannelHandlerContext) {
        while true {
            guard let frames = stream.take() else {
                end()
                finishResponse(context: context)
                return
            }
            if let last = frames.last {
                state = .streaming(stream, writing: true)
                for frame in frames.dropLast() { context.write(wrapOutboundOut(.body(frame)), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.body(last))).assumeIsolated().whenComplete { result in
                    self.written(result)
                }
                return
            }
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            if stream.wait({ handler.eventLoop.execute { handler.value.woken() } }) { return }
        }
    }

    /// News: take it, unless a write is still going (its end takes it) or the stream is over.
    private func woken() {
        guard case .streaming(let stream, writing: false) = state, let context else { return }
        pump(stream, context: context)
    }

    /// Now as an HTTP date (RFC 9110 §5.6.7): `Fri, 27 Nov 2026 07:55:16 GMT`.
    static func httpDate(_ seconds: time_t = time(nil)) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The path of a request target, without its query.
    static func pathOnly(_ target: String) -> Substring {
        target.prefix { $0 != "?" }
    }
}

/// Where ``CollectingWriter`` puts a response body.
private final class CollectedBody: @unchecked Sendable {
    var bytes = ByteBuffer()
}

/// Keeps a response body instead of writing it, to write it from the event loop.
private struct CollectingWriter: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.bytes.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
