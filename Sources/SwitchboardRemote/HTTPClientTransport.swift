public import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default ``RemoteTransport``, on swift-server's async-http-client.
///
/// By default the transport makes a client of its own, configured so that failures are seen when they happen
/// (``clientConfiguration(connectTimeout:)``), and shuts it down when the last copy of the transport goes, that is
/// when the ``RemoteBoard`` that holds it is released. `HTTPClient.shared` is never reconfigured.
///
/// ```swift
/// let remote = RemoteBoard(configuration)                                       // a client of its own
/// let quick = RemoteBoard(configuration, transport: HTTPClientTransport(connectTimeout: .seconds(1)))
/// let shared = RemoteBoard(configuration, transport: HTTPClientTransport(client: appClient))  // the app's client
/// ```
///
/// A failure is thrown as a ``RemoteTransportError`` that says what happened: refused, timed out, reset, closed.
public struct HTTPClientTransport: RemoteTransport {
    /// The client requests go through: the transport's own, or the one the app passed in.
    public let client: HTTPClient
    /// The largest response body ``send(_:)`` accepts.
    public var maxBodyBytes: Int
    /// How long the transport's own client waits for a connection to be established; `nil` when the app passed
    /// its client (whose configuration then decides).
    public let connectTimeout: Duration?
    /// Shuts the transport's own client down when the last copy of the transport goes; `nil` for an app's client.
    private let owner: ClientOwner?

    /// A transport with a client of its own, configured by ``clientConfiguration(connectTimeout:)`` and shut down
    /// when the last copy of the transport is released.
    ///
    /// - Parameters:
    ///   - connectTimeout: how long to wait for a connection to be established (TCP, and TLS for `https`). Keep it
    ///     shorter than ``RemoteConfiguration/timeout``, which bounds the whole request: an address that never
    ///     answers the handshake is then reported after `connectTimeout`, not at the request's deadline.
    ///   - maxBodyBytes: the largest response body ``send(_:)`` accepts.
    public init(connectTimeout: Duration = .seconds(3), maxBodyBytes: Int = 64 << 20) {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: Self.clientConfiguration(connectTimeout: connectTimeout))
        self.client = client
        self.maxBodyBytes = maxBodyBytes
        self.connectTimeout = connectTimeout
        owner = ClientOwner(client)
    }

    /// A transport on a client the app owns: the app configures it and shuts it down after the boards that use it
    /// are stopped (``RemoteBoard/stop()``).
    ///
    /// A client with async-http-client's default configuration (`HTTPClient.shared` among them) retries
    /// connection establishment until the request's deadline, so a stopped server is reported only when
    /// ``RemoteConfiguration/timeout`` has passed, not when the connection is refused. Make the client with
    /// ``clientConfiguration(connectTimeout:)``, or turn `connectionPool.retryConnectionEstablishment` off, to
    /// keep failures prompt; the board has a backoff of its own.
    public init(client: HTTPClient, maxBodyBytes: Int = 64 << 20) {
        self.client = client
        self.maxBodyBytes = maxBodyBytes
        connectTimeout = nil
        owner = nil
    }

    /// The configuration the transport's own client has: no retrying of connection establishment behind the
    /// board's back (a refused connection fails at once, and the board backs off itself) and `connectTimeout` for
    /// establishing a connection; async-http-client's defaults otherwise.
    public static func clientConfiguration(connectTimeout: Duration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = timeAmount(connectTimeout)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Sends a request and collects the body, all within the request's timeout: a server that sends its headers
    /// and then stalls is a timeout, not a wait without end.
    ///
    /// - Throws: ``RemoteTransportError`` when no complete response arrived.
    public func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let (client, maxBodyBytes, url, timeout) = (client, maxBodyBytes, request.url, request.timeout)
        let prepared = Self.prepare(request)
        do {
            return try await withThrowingTaskGroup(of: RemoteResponse.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, timeout: Self.timeAmount(timeout))
                    let body = try await response.body.collect(upTo: maxBodyBytes)
                    return RemoteResponse(status: Int(response.status.code), headers: Self.headers(response.headers),
                                          body: Array(body.readableBytesView))
                }
                // async-http-client's deadline ends with the response head; this one covers the body too.
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw HTTPClientError.deadlineExceeded
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch {
            throw failure(error, url: url, timeout: timeout)
        }
    }

    /// Sends a request and hands the body over as it arrives. The request's timeout covers the response head; the
    /// body (an event stream) may stay quiet as long as the connection lives.
    ///
    /// - Throws: ``RemoteTransportError`` when no response head arrived. The body throws one when the connection
    ///   fails midway.
    public func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(Self.prepare(request), timeout: Self.timeAmount(request.timeout))
        } catch {
            throw failure(error, url: request.url, timeout: request.timeout)
        }
        let (bytes, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let body = response.body
        let transport = self
        let (url, timeout) = (request.url, request.timeout)
        let reader = Task {
            do {
                for try await chunk in body { continuation.yield(Array(chunk.readableBytesView)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: transport.failure(error, url: url, timeout: timeout))
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return RemoteStreamResponse(status: Int(response.status.code), headers: Self.headers(response.headers),
                                    body: bytes)
    }

    /// An error of async-http-client or SwiftNIO in the words of ``RemoteTransportError``.
    func failure(_ error: any Error, url: String, timeout: Duration) -> RemoteTransportError {
        let peer = Self.authority(of: url)
        switch Self.kind(of: error) {
        case .refused:
            return RemoteTransportError(.refused, "connection refused by \(peer)")
        case .reset:
            return RemoteTransportError(.reset, "connection reset by \(peer)")
        case .closed:
            return RemoteTransportError(.closed, "connection closed by \(peer) before the response was complete")
        case .timedOut where Self.isConnectTimeout(error):
            let after = connectTimeout.map { " within \($0)" } ?? ""
            return RemoteTransportError(.timedOut, "timed out connecting to \(peer): no connection\(after)")
        case .timedOut:
            return RemoteTransportError(.timedOut, "timed out: no complete response from \(peer) within \(timeout)")
        case .other, nil:
            return RemoteTransportError(.other, "\(peer): \(error)")
        }
    }

    /// What kind of failure an error is, looking inside the errors SwiftNIO collects while connecting.
    static func kind(of error: any Error) -> RemoteTransportError.Kind? {
        switch error {
        case let error as RemoteTransportError:
            return error.kind
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
                 .tlsHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .closed
            default:
                return nil
            }
        case let error as NIOConnectionError:
            for failure in error.connectionErrors {
                if let kind = kind(of: failure.error) { return kind }
            }
            return nil
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .refused
            case ECONNRESET, EPIPE: return .reset
            case ETIMEDOUT: return .timedOut
            default: return nil
            }
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timedOut
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .closed
            default: return nil
            }
        default:
            return nil
        }
    }

    static func isConnectTimeout(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .connectTimeout
        case let error as ChannelError:
            if case .connectTimeout = error { true } else { false }
        case let error as NIOConnectionError: error.connectionErrors.contains { isConnectTimeout($0.error) }
        default: false
        }
    }

    /// `host:port` of a URL, for messages.
    static func authority(of url: String) -> String {
        let origin = BulkEvaluation.origin(of: url)
        guard let schemeEnd = origin.range(of: "://") else { return origin }
        return String(origin[schemeEnd.upperBound...])
    }

    static func prepare(_ request: RemoteRequest) -> HTTPClientRequest {
        var prepared = HTTPClientRequest(url: request.url)
        prepared.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { prepared.headers.add(name: name, value: value) }
        if !request.body.isEmpty { prepared.body = .bytes(ByteBuffer(bytes: request.body)) }
        return prepared
    }

    static func headers(_ headers: HTTPHeaders) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers { result[name.lowercased()] = value }
        return result
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// Owns a transport's own client: shuts it down when the last copy of the transport goes. The shutdown holds the
/// client until it has finished, so the client is never released while running.
private final class ClientOwner: Sendable {
    let client: HTTPClient

    init(_ client: HTTPClient) {
        self.client = client
    }

    deinit {
        client.shutdown(queue: .global()) { _ in }
    }
}
