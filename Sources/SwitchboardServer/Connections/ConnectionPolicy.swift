import Hummingbird
import HummingbirdCore

/// How one run of the server treats connections: the cap in force — the configured one, lowered to what the
/// open-files limit leaves room for — the timeouts, and the count of open connections.
struct ConnectionPolicy: Sendable {
    /// The open-files limit when the server started.
    let limit: DescriptorLimit
    /// The configured cap.
    let configuredCap: Int
    /// How many are open, against the cap in force.
    let connections: OpenConnections
    let headerTimeout: Duration
    let idleTimeout: Duration
    let metrics: ServerMetrics

    init(configuration: ServerConfiguration, metrics: ServerMetrics, limit: DescriptorLimit = .current()) {
        self.limit = limit
        configuredCap = configuration.maxConnections
        connections = OpenConnections(cap: limit.connectionCap(for: configuration.maxConnections), metrics: metrics)
        headerTimeout = configuration.headerTimeout
        idleTimeout = configuration.idleTimeout
        self.metrics = metrics
    }

    /// Hummingbird's HTTP/1 server with the cap and the timeouts; `router` answers the event-stream requests that
    /// a connection serves itself (``EventStreamConnectionHandler``).
    func server(router: RouterResponder<ServerContext>) -> HTTPServerBuilder {
        HTTPServerBuilder { [self] responder in
            GuardedHTTP1Channel(http1: HTTP1Channel(responder: responder), router: router, policy: self)
        }
    }

    /// For the "listening" line: `up to 10000 connections (open files: soft 1048576, hard 1048576)`, and why the
    /// cap is lower than configured when it is.
    var summary: String {
        let cap = connections.cap
        let lowered = cap < configuredCap
            ? ", not \(configuredCap): the open-files limit keeps \(limit.reserve) descriptors for the rest" : ""
        return "up to \(cap) connections\(lowered) (open files: \(limit)); header timeout \(headerTimeout), "
            + "idle timeout \(idleTimeout)"
    }
}
