import HTTPTypes
import Hummingbird
import Locking
import NIOCore

/// Where an event-stream route hands its stream when the connection serves it without a task
/// (``EventStreamConnectionHandler``): set on the request's context only then.
///
/// The route decides everything — access, headers, the opening bytes and where the stream starts — as it does for
/// a stream its connection task writes; only who writes the frames differs.
final class EventStreamHandoff: Sendable {
    /// A stream a route handed over, with the bytes to send before its frames.
    struct Taken: Sendable {
        let stream: ChangeFeed.Stream
        let opening: ByteBuffer
    }

    private let taken = Locked<Taken?>(nil)

    /// Hands a stream over; the route answers with the response head only.
    func take(_ stream: ChangeFeed.Stream, opening: ByteBuffer) {
        taken.withLock { $0 = Taken(stream: stream, opening: opening) }
    }

    /// The stream handed over, once: `nil` when the route answered otherwise (a refusal, an error).
    func takeStream() -> Taken? {
        taken.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }
}

extension Response {
    /// An event stream's response: `opening`, then the stream's frames until the server shuts down.
    ///
    /// On a connection that serves the stream itself (``ServerContext/eventStreamHandoff``) the stream is handed
    /// to it and this response carries only the head; otherwise the body writes the frames from the connection's
    /// task.
    static func eventStream(
        headers: HTTPFields, opening: ByteBuffer, stream: ChangeFeed.Stream, context: ServerContext
    ) -> Response {
        if let handoff = context.eventStreamHandoff {
            handoff.take(stream, opening: opening)
            return Response(status: .ok, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(opening)
            // The feed's frames are shared by every stream: each is written as it is, never copied.
            while let frames = await stream.next() {
                for frame in frames { try await writer.write(frame) }
            }
            try await writer.finish(nil)
        })
    }
}
