import Foundation
import Switchboard
import SwitchboardRemote
import SwitchboardServer
#if canImport(Glibc)
import Glibc
#endif

// `Benchmarks/run remote-faults`: how a RemoteBoard with the default transport meets a server that is down, silent
// or restarted, on loopback. Prints exactly four `name: value` lines, each the median of ROUNDS runs (default 5):
//
// - remote.offline_start_ms: from making a board with a cache for its context, the server refusing connections,
//   until `waitUntilSettled()` has returned and the cached value is in hand.
// - remote.refused_report_ms: from making a board without a cache, the server refusing connections, until
//   `lastError` reports the failure.
// - remote.silent_server_start_ms: as offline_start_ms, against a server that accepts connections and never
//   answers.
// - remote.restart_catch_up_ms: a board follows the server's event stream; the server stops, the board notices,
//   the server starts again on the same port and a value changes: from the restart until the board has the value.
//
// Every board uses the defaults an app gets: `RemoteConfiguration`'s timeout and backoff, `HTTPClientTransport()`.

let rounds = max(1, Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 5)

func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, _ samples: [Double]) {
    print("\(name): \(String(format: "%.1f", median(samples)))")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("remote-faults: \(message)\n".utf8))
    exit(1)
}

/// A loopback listener that accepts connections and never answers them.
final class SilentServer: @unchecked Sendable {
    let descriptor: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var open = true

    init(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else { fail("the silent server could not bind \(port)") }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                let keep = lock.withLock { () -> Bool in
                    if open { accepted.append(client) }
                    return open
                }
                if !keep { close(client) }
            }
        }
    }

    func stop() {
        let clients = lock.withLock { () -> [Int32] in
            open = false
            return accepted
        }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        for client in clients { close(client) }
    }
}

let directory = NSTemporaryDirectory() + "switchboard-remote-faults-\(UUID().uuidString)"
try FileManager.default.createDirectory(atPath: directory + "/flags", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
try """
    namespace: bench
    preferences:
      limit:
        type: int
        default: 1
      greeting:
        type: string
        default: hello
    """.write(toFile: directory + "/flags/bench.yaml", atomically: true, encoding: .utf8)
let board = try Board(directory: directory + "/flags", options: .init(
    statePath: directory + "/state.json", environment: [:], pollInterval: nil))
try board.set("bench.limit", to: 42, actor: "bench")
let cache = directory + "/cache"

func startServer(port: Int) async throws -> (FlagServer, Int) {
    let server = FlagServer(board: board, configuration: ServerConfiguration(host: "127.0.0.1", port: port))
    return (server, try await server.start())
}

func configuration(_ url: String, cache: String?, poll: Duration? = .seconds(30)) throws -> RemoteConfiguration {
    try RemoteConfiguration(baseURL: url, cacheDirectory: cache, pollInterval: poll, environment: [:])
}

// Fill the cache for the server's URL, then stop the server: the port now refuses.
var (server, port) = try await startServer(port: 0)
let url = "http://127.0.0.1:\(port)"
do {
    let filler = RemoteBoard(try configuration(url, cache: cache))
    while filler.status != .live { try await Task.sleep(for: .milliseconds(5)) }
    await filler.stop()
}
await server.stop()

/// Makes a board with the cache, waits until it is settled and reads the cached value.
func cachedStart() async throws -> Double {
    let start = ContinuousClock.now
    let remote = RemoteBoard(try configuration(url, cache: cache))
    await remote.waitUntilSettled(timeout: .seconds(60))
    let value = remote.int("bench.limit", default: 0)
    let elapsed = milliseconds(since: start)
    guard value == 42 else { fail("the cached value is \(value), not 42 (status \(remote.status))") }
    await remote.stop()
    return elapsed
}

var offline: [Double] = []
for _ in 0..<rounds { offline.append(try await cachedStart()) }

var refused: [Double] = []
for _ in 0..<rounds {
    let start = ContinuousClock.now
    let remote = RemoteBoard(try configuration(url, cache: nil))
    while remote.lastError == nil {
        guard milliseconds(since: start) < 60_000 else { fail("no failure reported within 60 s") }
        try await Task.sleep(for: .milliseconds(1))
    }
    refused.append(milliseconds(since: start))
    await remote.stop()
}

let silent = SilentServer(port: port)
var silentStarts: [Double] = []
for _ in 0..<rounds { silentStarts.append(try await cachedStart()) }
silent.stop()

// Restarts: the board follows the event stream without polling, so only the reconnection can bring the change.
(server, _) = try await startServer(port: port)
let follower = RemoteBoard(try configuration(url, cache: nil, poll: nil))
while follower.status != .live { try await Task.sleep(for: .milliseconds(5)) }
// Let the event stream connect.
try await Task.sleep(for: .milliseconds(300))
var catchUps: [Double] = []
for round in 1...rounds {
    await server.stop()
    let stopped = ContinuousClock.now
    while follower.lastError == nil {
        guard milliseconds(since: stopped) < 60_000 else { fail("the stop was not noticed within 60 s") }
        try await Task.sleep(for: .milliseconds(1))
    }
    (server, _) = try await startServer(port: port)
    let restarted = ContinuousClock.now
    try board.set("bench.greeting", to: "restart \(round)", actor: "bench")
    while follower.string("bench.greeting", default: "") != "restart \(round)" {
        guard milliseconds(since: restarted) < 60_000 else { fail("no catch-up within 60 s") }
        try await Task.sleep(for: .milliseconds(1))
    }
    catchUps.append(milliseconds(since: restarted))
    // Back on the event stream before the next stop.
    while follower.lastError != nil || follower.status != .live { try await Task.sleep(for: .milliseconds(5)) }
    try await Task.sleep(for: .milliseconds(300))
}
await follower.stop()
await server.stop()

report("remote.offline_start_ms", offline)
report("remote.refused_report_ms", refused)
report("remote.silent_server_start_ms", silentStarts)
report("remote.restart_catch_up_ms", catchUps)
