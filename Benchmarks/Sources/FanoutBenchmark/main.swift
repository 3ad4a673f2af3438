// `Benchmarks/run fanout N`: N OFREP event streams on one running `switchboard serve`, the server's memory for
// them, and how long a change takes to reach every one.
//
// Usage: fanout-bench PORT SERVER_PID STREAMS, with FANOUT_TOKEN (the admin token), FANOUT_KEY (a bool flag) and
// optionally FANOUT_WRITES (10). Plain sockets and epoll on one thread: the client must not be what is measured,
// and it does not link Switchboard, so it builds in seconds.
//
// It opens the streams (at most 256 connecting at once, as a crowd of clients reconnecting would), waits for
// them to settle, reads the server's VmRSS, then makes FANOUT_WRITES admin writes one after the other. For each
// write, each stream's delivery time runs from just before the write is sent to the epoll_wait that reported
// the stream readable with an `id:` line above the revision in service before the write (GET /healthz, and
// every id seen so far): stamping at epoll_wait's return leaves the client's own draining of the batch out. A
// stream that has not got it within 15 s, or that closed, missed it.
import CEpoll
import Glibc

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Prints to standard error and exits.
func fail(_ message: String) -> Never {
    let line = Array("fanout-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// The server's resident memory in KiB, from /proc/PID/status: `field` is VmRSS (all of it) or RssAnon (the
/// anonymous pages alone, leaving out the binary's text and other file-backed pages faulted in along the way).
func residentKiB(of pid: Int32, _ field: String = "VmRSS:") -> Int {
    guard let file = fopen("/proc/\(pid)/status", "r") else { fail("the server (pid \(pid)) is gone") }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        if text.hasPrefix(field) {
            return Int(text.dropFirst(field.count).filter(\.isNumber)) ?? 0
        }
    }
    fail("no \(field) for pid \(pid)")
}

/// A nonblocking TCP socket connecting to the server on loopback.
func connectToServer(port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 || errno == EINPROGRESS else { fail("connect: \(String(cString: strerror(errno)))") }
    return fd
}

/// Sends all of a short request; the socket's buffer always has room for it.
func send(_ text: String, on fd: Int32) {
    let bytes = Array(text.utf8)
    let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == bytes.count else { fail("send: \(String(cString: strerror(errno)))") }
}

/// The revision in service, from `GET /healthz` on a blocking connection of its own.
func servedRevision(port: UInt16) -> UInt64 {
    let fd = connectToServer(port: port)
    defer { close(fd) }
    var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    Glibc.poll(&waiting, 1, 5000)
    send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", on: fd)
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = now() + 10
    while now() < deadline {
        let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            var readable = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            Glibc.poll(&readable, 1, 1000)
            continue
        }
        if got <= 0 { break }
        response.append(contentsOf: chunk[0..<got])
    }
    let text = String(decoding: response, as: UTF8.self)
    let name = Array("\"revision\"".utf8)
    guard response.starts(with: Array("HTTP/1.1 200".utf8)),
          let field = response.indices.first(where: { response[$0...].starts(with: name) })
    else { fail("GET /healthz: \(text)") }
    let after = String(decoding: response[(field + name.count)...], as: UTF8.self)
    let digits = after.drop { !$0.isNumber }.prefix(while: \.isNumber)
    guard let revision = UInt64(digits) else { fail("GET /healthz: no revision in \(text)") }
    return revision
}

/// One event stream.
struct Stream {
    enum Phase { case connecting, head, open, closed }
    var fd: Int32
    var phase = Phase.connecting
    /// Bytes after the last line break.
    var pending: [UInt8] = []
    /// When this stream got the write being measured.
    var delivered: Double?
}

guard CommandLine.arguments.count == 4, let port = UInt16(CommandLine.arguments[1]),
      let serverPID = Int32(CommandLine.arguments[2]), let count = Int(CommandLine.arguments[3]), count > 0
else { fail("usage: fanout-bench PORT SERVER_PID STREAMS") }
let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
guard let token = environment("FANOUT_TOKEN"), let key = environment("FANOUT_KEY") else {
    fail("FANOUT_TOKEN and FANOUT_KEY must be set")
}
let writes = environment("FANOUT_WRITES").flatMap { Int($0) } ?? 10

// As many descriptors as the hard limit allows.
var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
guard limit.rlim_cur > rlim_t(count + 16) else { fail("the open-files limit (\(limit.rlim_cur)) is below \(count)") }

let poll = epoll_create1(0)
var streams: [Stream] = []
streams.reserveCapacity(count)
/// The epoll data of the admin connection; a stream's is its index.
let adminTag = UInt64.max
// Room for every stream in one epoll_wait, so that a batch's stamp is not taken after draining earlier batches.
var events = [epoll_event](repeating: epoll_event(), count: max(1024, count + 16))
let request = "GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
let lineBreak = UInt8(ascii: "\n")
let idPrefix = Array("id: ".utf8)

/// Watches `fd` for `events` under `tag`.
@MainActor func watch(_ fd: Int32, _ events: EPOLL_EVENTS, tag: UInt64, modify: Bool = false) {
    var event = epoll_event()
    event.events = events.rawValue
    event.data.u64 = tag
    guard epoll_ctl(poll, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event) == 0 else {
        fail("epoll_ctl: \(String(cString: strerror(errno)))")
    }
}

/// The highest revision any stream has read, and the write being measured: a stream has it when it reads an id
/// above `baseline`.
var highest: UInt64 = 0
var baseline: UInt64 = 0
var writeStart = 0.0
/// When the last epoll_wait returned: the time of every delivery it reported.
var batchTime = 0.0
var latencies: [Double] = []
/// Per write, the first stream's delivery time.
var firsts: [Double] = []
var first = Double.infinity
var received = 0
var opened = 0
var closed = 0
var adminResponse: [UInt8] = []
var adminDone = true
var buffer = [UInt8](repeating: 0, count: 65536)

/// Reads what a stream has: the response head while opening, then its lines; records the write's delivery.
@MainActor func readStream(_ index: Int) {
    while true {
        let got = buffer.withUnsafeMutableBytes { recv(streams[index].fd, $0.baseAddress, $0.count, 0) }
        if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
        if got <= 0 {
            if streams[index].phase == .head { fail("stream \(index) closed before its response head") }
            streams[index].phase = .closed
            closed += 1
            close(streams[index].fd)
            return
        }
        streams[index].pending.append(contentsOf: buffer[0..<got])
        if streams[index].phase == .head {
            let end = streams[index].pending.withUnsafeBufferPointer { bytes in
                bytes.indices.first { bytes[$0...].starts(with: [13, 10, 13, 10]) }
            }
            guard let end else { continue }
            guard streams[index].pending.starts(with: Array("HTTP/1.1 200".utf8)) else {
                fail("stream \(index) was refused: \(String(decoding: streams[index].pending, as: UTF8.self))")
            }
            streams[index].pending.removeFirst(end + 4)
            streams[index].phase = .open
            opened += 1
        }
        // Whole lines only; an `id:` line names the revision of the event it opens. Parsed in place (no copy of
        // the bytes), then the lines are dropped at once.
        let (last, revision) = streams[index].pending.withUnsafeBufferPointer { bytes -> (Int?, UInt64) in
            guard let last = bytes.lastIndex(of: lineBreak) else { return (nil, 0) }
            var start = 0
            var top: UInt64 = 0
            for position in 0...last where bytes[position] == lineBreak {
                if bytes[start...].starts(with: idPrefix) {
                    var revision: UInt64 = 0
                    var digit = start + idPrefix.count
                    while digit < position, bytes[digit] >= 48, bytes[digit] <= 57 {
                        revision = revision * 10 + UInt64(bytes[digit] - 48)
                        digit += 1
                    }
                    top = max(top, revision)
                }
                start = position + 1
            }
            return (last, top)
        }
        guard let last else { continue }
        streams[index].pending.removeFirst(last + 1)
        highest = max(highest, revision)
        if revision > baseline, streams[index].delivered == nil, writeStart > 0 {
            streams[index].delivered = batchTime
            latencies.append((batchTime - writeStart) * 1000)
            first = min(first, (batchTime - writeStart) * 1000)
            received += 1
        }
    }
}

/// Reads the admin write's response until the server closes the connection.
@MainActor func readAdmin(_ fd: Int32) {
    while true {
        let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
        if got <= 0 {
            guard adminResponse.starts(with: Array("HTTP/1.1 200".utf8)) else {
                fail("the write failed: \(String(decoding: adminResponse, as: UTF8.self))")
            }
            close(fd)
            adminDone = true
            return
        }
        adminResponse.append(contentsOf: buffer[0..<got])
    }
}

/// Waits up to `timeout` seconds for events and handles them.
@MainActor func turn(timeout: Double, admin: Int32 = -1) {
    let ready = epoll_wait(poll, &events, Int32(events.count), Int32(max(0, timeout * 1000)))
    batchTime = now()
    guard ready >= 0 || errno == EINTR else { fail("epoll_wait: \(String(cString: strerror(errno)))") }
    for event in events.prefix(Int(max(0, ready))) {
        let tag = event.data.u64
        if tag == adminTag {
            readAdmin(admin)
            continue
        }
        let index = Int(tag)
        switch streams[index].phase {
        case .connecting:
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(streams[index].fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { fail("stream \(index) did not connect: \(String(cString: strerror(error)))") }
            send(request, on: streams[index].fd)
            streams[index].phase = .head
            watch(streams[index].fd, EPOLLIN, tag: tag, modify: true)
        case .head, .open:
            readStream(index)
        case .closed:
            break
        }
    }
}

let rssBefore = residentKiB(of: serverPID)
let anonBefore = residentKiB(of: serverPID, "RssAnon:")
let openStart = now()
while opened < count {
    while streams.count < count, streams.count - opened < 256 {
        let fd = connectToServer(port: port)
        streams.append(Stream(fd: fd))
        watch(fd, EPOLL_EVENTS(EPOLLOUT.rawValue | EPOLLIN.rawValue), tag: UInt64(streams.count - 1))
    }
    turn(timeout: 1)
    if now() - openStart > 120 { fail("only \(opened) of \(count) streams opened in 120 s") }
}
let openSeconds = now() - openStart
// Settle: the server finishes whatever opening left behind before its memory is read.
let settleEnd = now() + 3
while now() < settleEnd { turn(timeout: settleEnd - now()) }
let rssOpen = residentKiB(of: serverPID)
let anonOpen = residentKiB(of: serverPID, "RssAnon:")

var missed = 0
for write in 0..<writes {
    // Above the revision in service, not only above the ids seen: a write that reached no stream in time must
    // not have its late frames taken for the next write's.
    baseline = max(highest, servedRevision(port: port))
    for index in streams.indices { streams[index].delivered = nil }
    received = 0
    first = .infinity
    let body = "{\"value\": \(write % 2 == 0 ? "true" : "false")}"
    let admin = connectToServer(port: port)
    adminResponse = []
    adminDone = false
    // Connected before the clock starts: the time is the server's, from the request to the streams.
    var waiting = pollfd(fd: admin, events: Int16(POLLOUT), revents: 0)
    Glibc.poll(&waiting, 1, 5000)
    writeStart = now()
    send("PUT /v1/overrides/\(key) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
        on: admin)
    watch(admin, EPOLLIN, tag: adminTag)
    let deadline = writeStart + 15
    // Until every open stream has it: a stream that got it and then closed does not end the wait early.
    while (!adminDone || streams.contains(where: { $0.phase == .open && $0.delivered == nil })) && now() < deadline {
        turn(timeout: deadline - now(), admin: admin)
    }
    if !adminDone { fail("the write got no answer in 15 s") }
    missed += streams.count(where: { $0.delivered == nil })
    if first.isFinite { firsts.append(first) }
    writeStart = 0
    // Let stragglers and any second revision of the same write arrive before the next one.
    let pause = now() + 0.5
    while now() < pause { turn(timeout: pause - now()) }
}
let rssEnd = residentKiB(of: serverPID)

latencies.sort()
/// The value below which `fraction` of the delivery times fall.
@MainActor func percentile(_ fraction: Double) -> Double {
    latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
}
/// A figure with `digits` decimals.
func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}
print("fanout.streams: \(count)")
print("fanout.rss_before_mb: \(format(Double(rssBefore) / 1024))")
print("fanout.rss_open_mb: \(format(Double(rssOpen) / 1024))")
print("fanout.rss_after_writes_mb: \(format(Double(rssEnd) / 1024))")
print("fanout.anon_before_mb: \(format(Double(anonBefore) / 1024))")
print("fanout.anon_open_mb: \(format(Double(anonOpen) / 1024))")
print("fanout.kb_per_stream: \(format(Double(anonOpen - anonBefore) / Double(count), 2))")
print("fanout.delivery_p50_ms: \(format(percentile(0.5)))")
print("fanout.delivery_p99_ms: \(format(percentile(0.99)))")
firsts.sort()
let firstMedian = firsts.isEmpty ? 0 : firsts[firsts.count / 2]
print("fanout.first_ms: \(format(firstMedian))")
print("fanout.spread_p99_ms: \(format(percentile(0.99) - firstMedian))")
print("fanout.open_s: \(format(openSeconds, 2))")
print("fanout.writes: \(writes)")
print("fanout.missed: \(missed)")
