/// An HTTP request a ``RemoteBoard`` sends: a bulk evaluation or an event stream.
public struct RemoteRequest: Sendable, Hashable {
    /// `POST` for evaluations, `GET` for the event stream.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Header fields, names as written (`Authorization`, `If-None-Match`, …).
    public var headers: [String: String]
    /// The request body; empty for none.
    public var body: [UInt8]
    /// How long the transport may wait for the response head.
    public var timeout: Duration

    /// Creates a request.
    public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8] = [],
                timeout: Duration = .seconds(10)) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A complete HTTP response.
public struct RemoteResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields with lower-cased names (`etag`, `retry-after`).
    public var headers: [String: String]
    /// The whole body.
    public var body: [UInt8]

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// A response whose body arrives piece by piece: a server-sent event stream.
public struct RemoteStreamResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The body's bytes as they arrive; finishes when the connection closes, throws when it fails. Cancelling the
    /// task that reads it closes the connection.
    public var body: AsyncThrowingStream<[UInt8], any Error>

    /// Creates a streaming response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// How a ``RemoteBoard`` talks HTTP: two calls, so an app can plug in `URLSession` and a test a scripted peer.
///
/// ``HTTPClientTransport`` (async-http-client) is the default. A transport throws only when no response arrived
/// (connection refused, timeout, reset); every status code, 4xx and 5xx included, is a response. Throwing a
/// ``RemoteTransportError`` lets the board's ``RemoteBoard/lastError`` and log say which; any other error is reported
/// as it describes itself.
///
/// A transport fails at once when a connection is refused, rather than retrying until the request's deadline: the
/// board retries with a backoff of its own and serves its cached values meanwhile.
public protocol RemoteTransport: Sendable {
    /// Sends a request and returns the whole response.
    func send(_ request: RemoteRequest) async throws -> RemoteResponse
    /// Sends a request and returns as soon as the response head is in, with the body still arriving.
    func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse
}

/// Why a request got no response, in the words a reader of ``RemoteBoard/lastError`` or the log needs: the server
/// refused the connection, did not answer in time, reset the connection or closed it midway.
public struct RemoteTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Nothing listens at the address (the server is stopped): `ECONNREFUSED`.
        case refused
        /// No connection within the connect timeout, or no complete response within the request's timeout.
        case timedOut
        /// The server (or something between) reset the connection: `ECONNRESET`.
        case reset
        /// The server closed the connection before the response was complete.
        case closed
        /// Anything else: a name that does not resolve, a TLS failure, …
        case other
    }

    /// What happened.
    public var kind: Kind
    /// A readable account naming the server (`connection refused by 127.0.0.1:8016`).
    public var description: String

    /// Creates a failure.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
