import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage, the connection (for the client's address,
/// read only when a sign-in fails) and, behind an access check, who sent the request.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Who sent the request, once ``AccessMiddleware`` has decided; `nil` on routes without an access check.
    var principal: Principal?
    /// Where an event-stream route hands its stream when the connection serves it without a task (set by
    /// ``EventStreamConnectionHandler`` only).
    var eventStreamHandoff: EventStreamHandoff?
    private let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// The client's IP address (the proxy's, behind one), for limiting failed sign-ins.
    var remoteAddress: String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
