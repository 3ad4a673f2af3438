public import Prometheus

/// How a ``FlagServer`` listens, whom it lets in, and its limits.
///
/// ```swift
/// var configuration = ServerConfiguration(port: 0)   // any free port, for a test
/// configuration.adminToken = AccessToken("s3cret")
/// ```
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback by default, so nothing outside this machine can connect unless asked.
    public var host: String
    /// The port; `0` asks the system for a free one (``FlagServer/port`` tells which).
    public var port: Int
    /// The token every admin route requires as `Authorization: Bearer <token>`; `nil` refuses the admin API.
    public var adminToken: AccessToken?
    /// The token OFREP routes require (as `Authorization: Bearer <token>` or `X-API-Key: <token>`); `nil` leaves
    /// them open. The admin token is accepted there too.
    public var readToken: AccessToken?
    /// The access file (`serve --access-file`): people with their own tokens and roles, and sign-in through an
    /// identity provider; watched, so changes take effect without a restart. `nil`: only the two tokens above.
    /// With one, OFREP needs a token too unless the file says `anonymous_read: true`.
    public var accessFile: String?
    /// The largest request body accepted, in bytes; a larger one gets 413.
    public var maxBodyBytes: Int
    /// How often an idle event stream gets a comment line, which keeps proxies from closing it and lets the
    /// server notice a client that went away.
    public var heartbeatInterval: Duration
    /// Whether SIGINT and SIGTERM shut the server down gracefully (the command line turns this on; a test
    /// leaves it off and calls ``FlagServer/stop()``).
    public var handlesSignals: Bool
    /// The registry `GET /metrics` renders in Prometheus text; `nil` answers 404 there, and the figures go only
    /// where the board's `Board/metricsFactory` sends them. `switchboard serve` bootstraps the `MetricsSystem`
    /// with ``FlagServer/prometheusFactory(registry:)`` and passes the registry here.
    public var prometheus: PrometheusCollectorRegistry?
    /// Whether the `feature_flag.evaluation` events of OFREP evaluations carry `feature_flag.result.value`.
    /// Off by default: values can be large or private.
    public var traceValues: Bool
    /// How long a request head may take to arrive, from its first byte (from the connection's start for the first
    /// request); past it the connection is closed, with a 408 when no response is in progress on it. A client that
    /// trickles a byte at a time gains nothing: the time is not reset by what arrives.
    public var headerTimeout: Duration = ServerConfiguration.defaultHeaderTimeout
    /// How long a keep-alive connection may wait with no request in progress before it is closed (and how long a
    /// request body may stall). A response in progress — an OFREP event stream — is never idle.
    public var idleTimeout: Duration = ServerConfiguration.defaultIdleTimeout
    /// The most connections served at once; one past it is answered 503 with `Retry-After` and closed. The
    /// server never allows more than the open-files limit leaves room for (``DescriptorLimit/connectionCap(for:)``).
    public var maxConnections: Int = ServerConfiguration.defaultMaxConnections
    /// The reverse proxies whose `X-Forwarded-For` names the client that ten failed sign-ins lock out for a minute
    /// (`--trusted-proxy`); without them, behind a proxy, every client shares the proxy's address.
    public var trustedProxies: TrustedProxies = .none
    /// The web origins whose pages may call OFREP from a browser (`--cors-origin`); none by default, so the server
    /// sends no CORS headers.
    public var corsOrigins: AllowedOrigins = .none
    /// How long after reading the identity provider's keys the server waits before it may read them again (for a
    /// token signed by a key it does not know). Five seconds; tests set it to make either side of it certain.
    package var identityKeysRefreshInterval: Duration = IdentityProvider.defaultRefreshInterval

    /// The default body limit: 64 KiB, far above any evaluation context or override value.
    public static let defaultMaxBodyBytes = 64 * 1024
    /// The default header timeout: 10 seconds.
    public static let defaultHeaderTimeout: Duration = .seconds(10)
    /// The default idle timeout: 60 seconds.
    public static let defaultIdleTimeout: Duration = .seconds(60)
    /// The default connection cap: 10,000.
    public static let defaultMaxConnections = 10_000

    /// Creates a configuration; the defaults suit `switchboard serve`.
    public init(
        host: String = "127.0.0.1", port: Int = 8016, adminToken: AccessToken? = nil, readToken: AccessToken? = nil,
        maxBodyBytes: Int = ServerConfiguration.defaultMaxBodyBytes,
        heartbeatInterval: Duration = .seconds(15), handlesSignals: Bool = false,
        prometheus: PrometheusCollectorRegistry? = nil, traceValues: Bool = false
    ) {
        self.prometheus = prometheus
        self.traceValues = traceValues
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.readToken = readToken
        self.maxBodyBytes = maxBodyBytes
        self.heartbeatInterval = heartbeatInterval
        self.handlesSignals = handlesSignals
    }
}
