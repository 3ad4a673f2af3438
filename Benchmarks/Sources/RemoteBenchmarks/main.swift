import Foundation
import Switchboard
import SwitchboardRemote
import SwitchboardServer

// `Benchmarks/run remote`: prints `name: value` lines.
//
// - remote.lookup_ns next to remote.board_plain_lookup_ns: the same typed lookup on a RemoteBoard and on the
//   Board it mirrors, in this process, fastest of five runs each.
// - remote.propagation_p50_ms / _p99_ms: from sending an admin PUT to the in-process server until the remote
//   board's `changes` yields the new value, over the server's SSE stream on loopback.

nonisolated(unsafe) var sink = 0

func measure(rounds: Int = 5, iterations: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
    }
    return best
}

func report(_ name: String, _ value: Double, decimals: Int = 2) {
    print("\(name): \(String(format: "%.\(decimals)f", value))")
}

let directory = NSTemporaryDirectory() + "switchboard-remote-bench-\(UUID().uuidString)"
try FileManager.default.createDirectory(atPath: directory + "/flags", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
var yaml = "namespace: bench\nflags:\n"
for i in 0..<1000 { yaml += "  flag_\(i):\n    type: bool\n    default: \(i % 2 == 0)\n" }
yaml += "preferences:\n  counter:\n    type: int\n    default: 0\n"
try yaml.write(toFile: directory + "/flags/bench.yaml", atomically: true, encoding: .utf8)
let board = try Board(inputs: BoardInputs(directory: directory + "/flags",
                                          statePath: directory + "/state.json", environment: [:]),
                      options: BoardOptions(pollInterval: nil))

let server = FlagServer(board: board, configuration: ServerConfiguration(
    host: "127.0.0.1", port: 0, adminToken: AccessToken("bench-admin")))
let port = try await server.start()
let url = "http://127.0.0.1:\(port)"
let remote = RemoteBoard(try RemoteConfiguration(baseURL: url, pollInterval: nil, environment: [:]))
while remote.status != .live { try await Task.sleep(for: .milliseconds(10)) }
// Let the event stream connect before measuring propagation.
try await Task.sleep(for: .milliseconds(300))

let n = 5_000_000
let plain = measure(iterations: n) {
    for _ in 0..<n where board.bool("bench.flag_500", default: false) { sink &+= 1 }
}
let remoteLookup = measure(iterations: n) {
    for _ in 0..<n where remote.bool("bench.flag_500", default: false) { sink &+= 1 }
}
let typed = FlagKey("bench.flag_500", default: false)
let remoteTyped = measure(iterations: n) {
    for _ in 0..<n where remote.value(typed) { sink &+= 1 }
}
report("remote.board_plain_lookup_ns", plain)
report("remote.lookup_ns", remoteLookup)
report("remote.typed_key_lookup_ns", remoteTyped)
report("remote.lookup_ratio_to_board", remoteLookup / plain)

// Propagation: PUT a new value, wait for the change.
func propagation(remote: RemoteBoard, url: String, rounds: Int) async throws -> [Double] {
    let transport = HTTPClientTransport()
    var changes = remote.changes.makeAsyncIterator()
    var samples: [Double] = []
    for value in 1...rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try await transport.send(RemoteRequest(
            method: "PUT", url: url + "/v1/overrides/bench.counter",
            headers: ["Authorization": "Bearer bench-admin", "Content-Type": "application/json"],
            body: Array("{\"value\": \(value), \"actor\": \"bench\"}".utf8)))
        guard response.status == 200 else { fatalError("PUT answered \(response.status)") }
        while let change = await changes.next() {
            if change.key == "bench.counter", change.new == .int(value) { break }
        }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return samples.sorted()
}

let rounds = Int(ProcessInfo.processInfo.environment["PROPAGATION_ROUNDS"] ?? "") ?? 200
let samples = try await propagation(remote: remote, url: url, rounds: rounds)
func percentile(_ samples: [Double], _ p: Double) -> Double {
    samples[min(samples.count - 1, Int(Double(samples.count) * p))]
}
report("remote.propagation_p50_ms", percentile(samples, 0.50))
report("remote.propagation_p99_ms", percentile(samples, 0.99))
report("remote.propagation_max_ms", samples.last ?? 0)
await remote.stop()
await server.stop()
if sink == 42 { print("") }
