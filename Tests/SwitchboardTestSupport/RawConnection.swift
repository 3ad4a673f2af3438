#if canImport(Glibc)
import Foundation
import Glibc
import Locking

/// A TCP connection to a loopback port that sends exactly the bytes a test writes — half a request head, a
/// trickle, nothing at all — and reads without blocking, so that a test can hold hundreds of them and wait on
/// them with ``waitUntil(_:timeout:interval:file:line:_:)`` without tying up a thread each.
public final class RawConnection: Sendable {
    private let socket: Int32
    private let state = Locked(State())

    private struct State {
        var received: [UInt8] = []
        var closed = false
    }

    /// OFREP's event stream, asked for as a browser or SDK does.
    public static let eventStreamRequest =
        "GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED
            close(socket)
            throw POSIXError(code)
        }
    }

    deinit {
        close(socket)
    }

    /// Sends `text` without waiting; `false` when the connection no longer takes it (the server closed it). Never
    /// raises SIGPIPE.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes {
            Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
        return sent == bytes.count
    }

    /// Closes the connection from this side.
    public func closeWrite() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Everything received so far, as text.
    public var received: String {
        drain()
        return state.withLock { String(decoding: $0.received, as: UTF8.self) }
    }

    /// Whether the server has closed the connection (or reset it); what it sent before is in ``received``.
    public var isClosed: Bool {
        drain()
        return state.withLock { $0.closed }
    }

    /// Waits until the server closes the connection and returns what it sent.
    public func waitUntilClosed(
        timeout: Duration = generousDeadline, file: String = #fileID, line: Int = #line
    ) async throws -> String {
        try await waitUntil("the server to close the connection", timeout: timeout, interval: .milliseconds(20),
                            file: file, line: line) { isClosed }
        return received
    }

    /// Waits until what was received contains `marker` and returns it all.
    public func waitFor(
        _ marker: String, timeout: Duration = generousDeadline, file: String = #fileID, line: Int = #line
    ) async throws -> String {
        try await waitUntil("\(marker.debugDescription) on the connection", timeout: timeout,
                            interval: .milliseconds(20), file: file, line: line) {
            received.contains(marker) || isClosed
        }
        let text = received
        guard text.contains(marker) else {
            throw DeadlineExceeded(what: "\(marker.debugDescription) before the server closed the connection, "
                                   + "after \(text.debugDescription)", timeout: timeout, file: file, line: line)
        }
        return text
    }

    /// Reads whatever has arrived, without blocking.
    private func drain() {
        state.withLock { state in
            guard !state.closed else { return }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    state.received += buffer[..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    state.closed = true
                    return
                } else if errno != EINTR {
                    return
                }
            }
        }
    }
}
#endif
