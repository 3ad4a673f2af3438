import Foundation
import Locking
import Switchboard
#if canImport(Glibc)
import Glibc
#endif

/// An OFREP server on raw loopback sockets that fails on purpose, the way real networks and servers fail: it
/// refuses nothing but can stay silent, stall a body after its headers, reset or truncate its event stream, answer
/// `503`, and be killed and started again on the same port. One thread per connection, blocking I/O: what the
/// client sees is exactly the bytes (or the reset) written here, with no HTTP library in between to smooth it.
///
/// Bulk evaluations (`POST /ofrep/v1/evaluate/flags`) are answered per ``mode``; the answer advertises the event
/// stream at `/events` when ``advertisesEvents`` is on; event streams (`GET /events`) follow ``streamMode``.
final class FaultServer: Sendable {
    /// How bulk evaluations are answered.
    enum Mode: Sendable, Equatable {
        /// `200` with the flags.
        case normal
        /// Accepts the connection, reads and drops the request, never answers.
        case silent
        /// Sends the head of a `200` with a `Content-Length` and the first bytes of the body, then nothing.
        case stalledBody
        /// Answers this status (`503`, say) for the next `count` requests, then goes back to ``normal``.
        case status(Int, count: Int)
    }

    /// How event streams go.
    enum StreamMode: Sendable, Equatable {
        /// Headers, then the connection stays open; ``announce()`` sends a `refetchEvaluation` event.
        case open
        /// Headers and a comment, then a TCP reset (`SO_LINGER` 0).
        case reset
        /// Headers and a `refetchEvaluation` event cut off before its end, then a clean close.
        case truncated
    }

    private struct State {
        var flags: [String: Value] = [:]
        var mode: Mode = .normal
        var streamMode: StreamMode = .open
        var advertisesEvents = false
        var fetches = 0
        var streams = 0
        /// Event-stream connections waiting for ``announce()``.
        var listeners: [Int: Int32] = [:]
    }

    private let state: Locked<State>
    private let listener: FaultListener
    /// The port it listens on.
    let port: Int

    /// Starts listening on 127.0.0.1, on `port` (0: a free one; another to start again where a stopped one was).
    init(port: Int = 0) throws {
        let state = Locked(State())
        self.state = state
        let box = Locked<FaultServer?>(nil)
        listener = try FaultListener(port: port) { connection in
            guard let server = box.withLock({ $0 }) else { return }
            server.handle(connection, state: state)
        }
        self.port = listener.port
        box.withLock { $0 = self }
    }

    /// The base URL.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Sets the flags served.
    func serve(_ flags: [String: Value]) { state.withLock { $0.flags = flags } }
    /// Sets how bulk evaluations are answered.
    func answer(with mode: Mode) { state.withLock { $0.mode = mode } }
    /// Sets how event streams go.
    func stream(with mode: StreamMode) { state.withLock { $0.streamMode = mode } }
    /// Whether bulk answers advertise the event stream.
    func advertiseEvents(_ on: Bool) { state.withLock { $0.advertisesEvents = on } }
    /// Bulk evaluation requests so far.
    var fetches: Int { state.withLock { $0.fetches } }
    /// Event-stream requests so far.
    var streams: Int { state.withLock { $0.streams } }
    /// Event streams open now.
    var openStreams: Int { state.withLock { $0.listeners.count } }

    /// Sends a `refetchEvaluation` event on every open event stream.
    func announce() {
        // Under the lock: a stream leaves the list before its socket is closed, so no write reaches a closed one.
        state.withLock { state in
            for descriptor in state.listeners.values {
                _ = FaultConnection.write(descriptor, "data: {\"type\":\"refetchEvaluation\"}\n\n")
            }
        }
    }

    /// Kills the server: stops listening and cuts every connection (silent and streaming ones too), then returns
    /// once the port is free for a new server.
    func stop() {
        listener.stop()
    }

    deinit {
        listener.stop()
    }

    private func handle(_ connection: FaultConnection, state: Locked<State>) {
        let mode = state.withLock { $0.mode }
        if mode == .silent {
            connection.holdUntilStopped()
            return
        }
        guard let request = connection.readRequest() else {
            connection.end()
            return
        }
        if request.method == "GET", request.path == "/events" {
            handleStream(connection, state: state)
            return
        }
        guard request.method == "POST", request.path == "/ofrep/v1/evaluate/flags" else {
            connection.respond(status: 404, body: "{}")
            return
        }
        let (flags, current, events) = state.withLock { state -> ([String: Value], Mode, Bool) in
            state.fetches += 1
            let current = state.mode
            if case .status(let code, let count) = current {
                state.mode = count > 1 ? .status(code, count: count - 1) : .normal
            }
            return (state.flags, current, state.advertisesEvents)
        }
        switch current {
        case .normal:
            connection.respond(status: 200, body: Self.bulkBody(flags, events: events ? url + "/events" : nil))
        case .silent:
            connection.holdUntilStopped()
        case .stalledBody:
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
                + "{\"flags\":[")
            connection.holdUntilStopped()
        case .status(let code, _):
            connection.respond(status: code, body: "{\"errorDetails\":\"scripted\"}")
        }
    }

    private func handleStream(_ connection: FaultConnection, state: Locked<State>) {
        let (mode, id) = state.withLock { state -> (StreamMode, Int) in
            state.streams += 1
            return (state.streamMode, state.streams)
        }
        // No length: the body is the rest of the connection, as an event stream is.
        connection.end()
        guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "Connection: close\r\n\r\n: connected\n\n") else { return }
        switch mode {
        case .open:
            state.withLock { $0.listeners[id] = connection.descriptor }
            connection.holdUntilStopped()
            state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        case .reset:
            // Give the client a moment to start reading, so the reset arrives mid-stream rather than with the head.
            Thread.sleep(forTimeInterval: 0.05)
            connection.reset()
        case .truncated:
            Thread.sleep(forTimeInterval: 0.05)
            _ = connection.write("data: {\"type\":\"refetchEvalu")
        }
    }

    /// A bulk evaluation body.
    static func bulkBody(_ flags: [String: Value], events: String?) -> String {
        let entries = flags.keys.sorted().map { key in
            var text = "{\"key\":"
            Value.writeJSONString(key, to: &text)
            return text + ",\"value\":" + flags[key]!.json + ",\"reason\":\"STATIC\"}"
        }
        var body = "{\"flags\":[" + entries.joined(separator: ",") + "]"
        if let events {
            body += ",\"eventStreams\":[{\"type\":\"sse\",\"url\":\"\(events)\"}]"
        }
        return body + "}"
    }
}

/// A request as the fault server read it.
struct FaultRequest: Sendable {
    var method: String
    var path: String
    var headers: [String: String]
}

/// One accepted connection, owned by the thread that serves it: that thread closes it when its handler returns.
/// ``FaultListener/stop()`` only shuts it down, which wakes a blocked read and makes later writes fail.
final class FaultConnection: Sendable {
    let descriptor: Int32
    private let stopped: Locked<Bool>
    private let ended = Locked(false)

    fileprivate init(descriptor: Int32, stopped: Locked<Bool>) {
        self.descriptor = descriptor
        self.stopped = stopped
    }

    /// Whether the connection serves another request after this one (keep-alive).
    var isReusable: Bool { !ended.withLock { $0 } && !stopped.withLock { $0 } }

    /// Serves no further request: the connection closes when the handler returns.
    func end() { ended.withLock { $0 = true } }

    /// Reads a request head and its `Content-Length` body; `nil` when the peer closed first.
    func readRequest() -> FaultRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            if buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == separator }
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "") ?? 0
        var body = buffer.count - (headEnd! + 4)
        while body < length {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            body += count
        }
        return FaultRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }

    /// Writes a whole response and leaves the connection open (keep-alive).
    func respond(status: Int, body: String) {
        let reason = status == 200 ? "OK" : "Scripted"
        _ = write("HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
        // Serve further requests on the same connection, as a keep-alive server does.
    }

    /// Writes text; `false` when the connection is gone.
    @discardableResult
    func write(_ text: String) -> Bool { Self.write(descriptor, text) }

    /// Writes text to a socket without raising SIGPIPE; `false` when the connection is gone.
    static func write(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Ends the connection with a TCP reset instead of a close: linger off, then the owning thread closes it.
    func reset() {
        end()
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Blocks the serving thread until the server stops or the client closes, reading (and dropping) whatever the
    /// client sends; the connection then closes.
    func holdUntilStopped() {
        end()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !stopped.withLock({ $0 }) {
            // Returns 0 or -1 once the listener shuts the connection down on stop.
            if read(descriptor, &chunk, chunk.count) <= 0 { break }
        }
    }
}

/// A listening socket and its accept thread; every accepted connection is served on a thread of its own.
final class FaultListener: Sendable {
    let port: Int
    private let descriptor: Int32
    private let stopped = Locked(false)
    private let open = Locked<Set<Int32>>([])
    private let acceptEnded = DispatchSemaphore(value: 0)
    private let connectionsEnded = DispatchGroup()

    /// Binds 127.0.0.1:`port` with `SO_REUSEADDR` (so a restart can take the port of a stopped one) and accepts.
    init(port: Int, serve: @escaping @Sendable (FaultConnection) -> Void) throws {
        let (descriptor, port) = try Self.bound(port: port)
        guard listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EADDRINUSE)
        }
        self.port = port
        self.descriptor = descriptor
        let (stopped, open, acceptEnded, connectionsEnded) = (stopped, open, acceptEnded, connectionsEnded)
        Thread.detachNewThread {
            defer {
                close(descriptor)
                acceptEnded.signal()
            }
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else {
                    if stopped.withLock({ $0 }) { return }
                    // EINTR, ECONNABORTED, a full descriptor table: the listening socket is still good.
                    usleep(1000)
                    continue
                }
                let admitted = open.withLock { open -> Bool in
                    guard !stopped.withLock({ $0 }) else { return false }
                    open.insert(client)
                    return true
                }
                guard admitted else {
                    close(client)
                    return
                }
                connectionsEnded.enter()
                Thread.detachNewThread {
                    defer {
                        // Under the lock that stop() shuts connections down with: it never touches a closed one.
                        open.withLock { open in
                            open.remove(client)
                            close(client)
                        }
                        connectionsEnded.leave()
                    }
                    let connection = FaultConnection(descriptor: client, stopped: stopped)
                    // Keep-alive: serve requests until the client closes, a handler ends it or the server stops.
                    serve(connection)
                    while connection.isReusable, Self.hasMoreRequests(client) { serve(connection) }
                }
            }
        }
    }

    /// 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A TCP socket bound to 127.0.0.1:`port` (0: a free one) with `SO_REUSEADDR`, not yet listening, and its port.
    static func bound(port: Int) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EADDRINUSE)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Waits for the next request on a kept-alive connection; `false` once the peer has closed it.
    private static func hasMoreRequests(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) > 0
    }

    /// Stops accepting, shuts every open connection down (their threads then close them) and waits until the
    /// listening socket and every connection are closed, so the port can be bound again.
    func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Wakes the blocked accept() (Linux returns EINVAL for a shut-down listening socket).
        shutdown(descriptor, Int32(SHUT_RDWR))
        acceptEnded.wait()
        open.withLock { open in
            for client in open { shutdown(client, Int32(SHUT_RDWR)) }
        }
        connectionsEnded.wait()
    }
}

/// A loopback address whose TCP handshake never completes: a listening socket that never accepts, its accept queue
/// filled by connections made here, so the kernel drops every further SYN, as a host that has vanished does.
final class UnansweredHandshake: Sendable {
    let port: Int
    private let descriptors: [Int32]

    init() throws {
        let listener = try FaultListener.bound(port: 0)
        guard listen(listener.descriptor, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var fillers: [Int32] = []
        // A backlog of 0 admits one or two connections before the queue is full; a few more make sure.
        for _ in 0..<4 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = FaultListener.loopback(port: listener.port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(client)
        }
        port = listener.port
        descriptors = [listener.descriptor] + fillers
    }

    var url: String { "http://127.0.0.1:\(port)" }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }
}
