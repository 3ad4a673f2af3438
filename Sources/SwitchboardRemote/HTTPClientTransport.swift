public import AsyncHTTPClient
public import NIOCore
public import NIOHTTP1

/// The default ``RemoteTransport``, on swift-server's async-http-client.
public struct HTTPClientTransport: RemoteTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// The largest response body ``send(_:)`` accepts.
    public var maxBodyBytes: Int

    /// A transport on `client`, by default the process-wide shared client (nothing to shut down).
    public init(client: HTTPClient = .shared, maxBodyBytes: Int = 64 << 20) {
        self.client = client
        self.maxBodyBytes = maxBodyBytes
    }

    /// Sends a request and collects the body.
    public func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let response = try await client.execute(Self.prepare(request), timeout: Self.timeAmount(request.timeout))
        let body = try await response.body.collect(upTo: maxBodyBytes)
        return RemoteResponse(status: Int(response.status.code), headers: Self.headers(response.headers),
                              body: Array(body.readableBytesView))
    }

    /// Sends a request and hands the body over as it arrives.
    public func stream(_ request: RemoteRequest) async throws -> RemoteStreamResponse {
        let response = try await client.execute(Self.prepare(request), timeout: Self.timeAmount(request.timeout))
        let (bytes, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let body = response.body
        let reader = Task {
            do {
                for try await chunk in body { continuation.yield(Array(chunk.readableBytesView)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return RemoteStreamResponse(status: Int(response.status.code), headers: Self.headers(response.headers),
                                    body: bytes)
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
