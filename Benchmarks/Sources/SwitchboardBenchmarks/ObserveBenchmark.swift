import Foundation
import Synchronization
import Switchboard
import SwitchboardTesting

/// A support record, the Codable value of `bench.support`.
struct Support: CodableFlagValue {
    var email: String
    var hours: [Int]
    var escalation: Escalation
    struct Escalation: Codable, Sendable { var after: Int; var to: [String] }
}

/// `Benchmarks/run observe`: what a write costs with 10,000 observers of other keys (against none), how soon an
/// observer's stream has a written value, and the property wrapper's and a Codable value's reads next to a typed
/// key's. The store is in memory (SwitchboardTesting), so the figures are the board's own work, not the disk's.
func benchmarkObserve() throws {
    var yaml = "namespace: bench\nflags:\n"
    for i in 0...10_000 { yaml += "  flag_\(i):\n    type: bool\n    default: false\n" }
    yaml += """
        preferences:
          support:
            type: object
            default: { email: help@example.com, hours: [9, 17], escalation: { after: 30, to: [ops, oncall] } }

        """
    let board = try Board.testing(yaml: yaml)
    let n = 2_000
    func writes() -> Double {
        var on = false
        return measure(iterations: n) {
            for _ in 0..<n {
                on.toggle()
                _ = try? board.set("bench.flag_0", to: on, actor: "bench")
            }
        } / 1_000
    }
    let typed = FlagKey("bench.flag_5000", default: true)
    let lookups = 2_000_000
    func plainLookup() -> Double {
        measure(iterations: lookups) { for _ in 0..<lookups where board.value(typed) { sink &+= 1 } }
    }
    let bare = writes()
    let bareLookup = plainLookup()

    // 10,000 observers, each of a key other than the one written.
    let observers = (1...10_000).map { board.observe("bench.flag_\($0)") { _ in sink &+= 1 } }
    let observed = writes()
    let observedLookup = plainLookup()

    // From the start of the write to the stream's consumer holding the value: the whole way, with no clamping,
    // so a value that arrives while `set` is still running counts what it took.
    let received = DispatchSemaphore(value: 0)
    let arrival = Mutex<ContinuousClock.Instant?>(nil)
    let consumer = Task.detached {
        for await _ in board.updates(of: FlagKey("bench.flag_0", default: false)) {
            arrival.withLock { $0 = .now }
            received.signal()
        }
    }
    received.wait()   // the current value
    var delays: [Double] = []
    var on = board.bool("bench.flag_0", default: false)
    for _ in 0..<1_000 {
        on.toggle()
        let started = ContinuousClock.now
        _ = try board.set("bench.flag_0", to: on, actor: "bench")
        received.wait()
        guard let arrived = arrival.withLock({ $0 }) else { fatalError("the consumer signalled without a time") }
        let delay = arrived - started
        delays.append(Double(delay.components.attoseconds) / 1e12 + Double(delay.components.seconds) * 1e6)
    }
    consumer.cancel()
    delays.sort()

    let wrapper = Preference(typed, on: board)
    let wrapperGet = measure(iterations: lookups) { for _ in 0..<lookups where wrapper.wrappedValue { sink &+= 1 } }
    let supportKey = FlagKey("bench.support", default: Support(email: "", hours: [], escalation: .init(after: 0, to: [])))
    let codableN = 200_000
    let codableGet = measure(iterations: codableN) {
        for _ in 0..<codableN { sink &+= board.value(supportKey).hours.count }
    }
    _ = observers

    report("observe.write_us", bare, decimals: 2)
    report("observe.write_us_with_10k_observers", observed, decimals: 2)
    report("observe.write_ratio_with_10k_observers", observed / bare, decimals: 2)
    report("observe.delivery_p50_us", delays[delays.count / 2], decimals: 1)
    report("observe.delivery_p99_us", delays[delays.count * 99 / 100], decimals: 1)
    report("lookup.typed_key_ns", bareLookup, decimals: 2)
    report("observe.typed_key_ns_with_10k_observers", observedLookup, decimals: 2)
    report("observe.wrapper_get_ns", wrapperGet, decimals: 2)
    report("observe.wrapper_ratio_to_typed_key", wrapperGet / bareLookup, decimals: 2)
    report("observe.codable_get_ns", codableGet, decimals: 1)
}
