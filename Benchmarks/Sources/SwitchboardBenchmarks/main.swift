import AllocationCounter
import Foundation
import InMemoryTracing
import Switchboard
import Tracing
import YAML

// Prints `name: value` lines; every ratio compares with a baseline measured in the same process.

/// Keeps results alive so the optimizer cannot drop the measured work.
nonisolated(unsafe) var sink = 0

/// Nanoseconds of the fastest of `rounds` runs of `body`, divided by `iterations`.
func measure(rounds: Int = 5, iterations: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        best = min(best, elapsed / Double(iterations))
    }
    return best
}

func report(_ name: String, _ value: Double, decimals: Int = 1) {
    print("\(name): \(String(format: "%.\(decimals)f", value))")
}

/// The process's resident and peak resident memory in bytes, from /proc/self/status.
func memory() -> (resident: Double, peak: Double) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        return Double(line.split(separator: " ").dropFirst().first { Double($0) != nil }.flatMap { Double($0) } ?? 0) * 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

/// 10,000 definitions of every type and most fields, a few MB of YAML; `part` only those in that range of
/// positions (a file of its own: `Benchmarks/run load-compare` writes them as 20 files).
func generatedDefinitions(count: Int, part: Range<Int>? = nil) -> String {
    let part = part ?? 0..<count
    var out = "# generated for the load benchmark\nnamespace: bench\n"
    let half = count / 2
    if part.lowerBound < half { out += "flags:\n" }
    for i in 0..<half where part.contains(i) {
        switch i % 3 {
        case 0:
            out += """
              release_\(i):
                description: Release toggle number \(i) for the checkout and payments flow.
                type: bool
                default: \(i % 2 == 0)
                owner: team-\(i % 17)
                tags: [checkout, release, wave-\(i % 5)]
                expires: 2030-\(String(format: "%02d", i % 12 + 1))-15

            """
        case 1:
            out += """
              experiment_\(i):
                description: A/B test \(i) of the button colour.
                type: string
                variants: { control: blue, treatment: green, holdout: grey }
                default: control
                owner: growth

            """
        default:
            out += """
              limit_\(i):
                description: Maximum number of items \(i) a customer can put in one basket before checkout.
                type: int
                default: \(i % 100 + 1)
                min: 1
                max: 1000
                renamed_from: [bench.old_limit_\(i)]

            """
        }
    }
    if part.upperBound > half { out += "preferences:\n" }
    for i in half..<count where part.contains(i) {
        switch i % 4 {
        case 0:
            out += """
              sort_\(i):
                description: Sort order of list \(i).
                type: string
                values: [newest_first, oldest_first, alphabetical]
                default: newest_first

            """
        case 1:
            out += """
              ratio_\(i):
                description: Share of traffic \(i) sent to the new recommendation service, between none and all.
                type: double
                default: 0.\(i % 9 + 1)
                min: 0.0
                max: 1.0

            """
        case 2 where i % 8 == 2:
            out += """
              sections_\(i):
                description: Sections on home screen variant \(i), from top to bottom, as the design team ordered them.
                type: list
                default: [recent, favorites, "section \(i)"]

            """
        case 2:
            out += """
              locale_\(i):
                description: Language and region of the storefront \(i), as a BCP 47 tag such as en-US or de-DE.
                type: string
                default: en-US
                pattern: "^[a-z]{2}(-[A-Z]{2})?$"

            """
        default:
            out += """
              support_\(i):
                description: Where customers of region \(i) are sent for help, with the opening hours of the desk.
                type: object
                default: { email: "help\(i)@example.com", chat: \(i % 2 == 0), hours: { from: 9, to: 17 } }

            """
        }
    }
    return out
}

func benchmarkLoad() {
    let text = generatedDefinitions(count: 10_000)
    let bytes = Array(text.utf8)
    let before = memory()
    let (definitions, after) = {
        let first = DefinitionLoader.load(sources: [("bench.yaml", bytes)])
        precondition(!first.hasErrors, "generated definitions have errors: \(first.errors.prefix(3))")
        return (first.registry.count, memory())
    }()
    let scan = measure(iterations: 1) { sink &+= YAMLParser.scanEvents(bytes) }
    let tree = measure(iterations: 1) {
        sink &+= YAMLParser.parse(bytes, file: "bench.yaml").problems.count
    }
    let load = measure(iterations: 1) {
        sink &+= DefinitionLoader.load(sources: [("bench.yaml", bytes)]).registry.count
    }
    report("load.definitions", Double(definitions), decimals: 0)
    report("load.yaml_mb", Double(bytes.count) / 1_048_576, decimals: 2)
    report("load.libyaml_scan_ms", scan / 1e6, decimals: 2)
    report("load.yaml_tree_ms", tree / 1e6, decimals: 2)
    report("load.load_validate_ms", load / 1e6, decimals: 2)
    report("load.ratio_to_libyaml_scan", load / scan, decimals: 2)
    report("load.peak_memory_mb", max(0, after.peak - before.resident) / 1_048_576, decimals: 1)
}

/// A project folder with `count` bool flags (and a few targeted ones), and a board on it.
func makeBoard(
    count: Int, extra: String = "", evaluationEvents: EvaluationEvents = .off
) throws -> (Board, String) {
    let directory = NSTemporaryDirectory() + "switchboard-bench-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory + "/flags", withIntermediateDirectories: true)
    var yaml = "namespace: bench\nflags:\n"
    for i in 0..<count { yaml += "  flag_\(i):\n    type: bool\n    default: \(i % 2 == 0)\n" }
    try (yaml + extra).write(toFile: directory + "/flags/bench.yaml", atomically: true, encoding: .utf8)
    let board = try Board(inputs: BoardInputs(directory: directory + "/flags", environment: [:]),
                          options: BoardOptions(pollInterval: nil, evaluationEvents: evaluationEvents))
    return (board, directory)
}

/// A flag with a schedule: a step in force since 2020 and one to come in 2099, so the board holds a wake-up.
let scheduledFlag = """
      scheduled:
        type: bool
        default: false
        schedule:
          - { at: 2020-01-01T00:00:00Z, serve: true }
          - { at: 2099-01-01T00:00:00Z, serve: false }

    """

func benchmarkLookup() throws {
    let (board, directory) = try makeBoard(count: 1000, extra: scheduledFlag)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try board.set("bench.flag_501", to: true, actor: "bench")
    var dictionary: [String: Bool] = [:]
    for i in 0..<1000 { dictionary["bench.flag_\(i)"] = i % 2 == 0 }
    let n = 5_000_000
    let plain = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.flag_500", default: false) { sink &+= 1 }
    }
    let overridden = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.flag_501", default: false) { sink &+= 1 }
    }
    let typed = FlagKey("bench.flag_500", default: false)
    let typedKey = measure(iterations: n) {
        for _ in 0..<n where board.value(typed) { sink &+= 1 }
    }
    let baseline = measure(iterations: n) {
        for _ in 0..<n where dictionary["bench.flag_500"] ?? false { sink &+= 1 }
    }
    // The step in force is folded into the snapshot when it is built, so a scheduled flag reads as any other.
    precondition(board.bool("bench.scheduled", default: false), "the 2020 step is in force")
    let scheduled = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.scheduled", default: false) { sink &+= 1 }
    }
    allocation_counter_start()
    for _ in 0..<100_000 where board.bool("bench.flag_500", default: false) { sink &+= 1 }
    for _ in 0..<100_000 where board.bool("bench.flag_501", default: false) { sink &+= 1 }
    let allocations = allocation_counter_stop()

    // Both cores reading at once: the best of five rounds, like the single-thread figures (one round swung by
    // a third between runs of the same binary).
    let perThread = 5_000_000
    let threads = 2
    let parallel = measure(iterations: perThread * threads) {
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var local = 0
            for _ in 0..<perThread where board.bool("bench.flag_500", default: false) { local += 1 }
            if local == -1 { print(local) }
        }
    }

    // With feature_flag.evaluation events on, inside a span of an in-memory tracer (which keeps every event, as
    // an exporting tracer keeps them until it sends them).
    let (traced, tracedDirectory) = try makeBoard(count: 1000, evaluationEvents: .on)
    defer { try? FileManager.default.removeItem(atPath: tracedDirectory) }
    let tracedN = 200_000
    let tracer = InMemoryTracer()
    let tracedNanoseconds = withTracer(tracer) {
        withSpan("bench") { _ in
            measure(rounds: 3, iterations: tracedN) {
                for _ in 0..<tracedN where traced.bool("bench.flag_500", default: false) { sink &+= 1 }
            }
        }
    }
    precondition(tracer.finishedSpans.first?.events.count == 3 * tracedN, "every traced lookup adds one event")

    report("lookup.plain_ns", plain, decimals: 2)
    report("lookup.runtime_override_ns", overridden, decimals: 2)
    report("lookup.typed_key_ns", typedKey, decimals: 2)
    report("lookup.dictionary_ns", baseline, decimals: 2)
    report("lookup.ratio_to_dictionary", plain / baseline, decimals: 2)
    report("lookup.allocations_per_lookup", Double(allocations) / 200_000, decimals: 4)
    report("lookup.parallel_lookups_per_second", 1e9 / parallel, decimals: 0)
    report("lookup.traced_ns", tracedNanoseconds, decimals: 1)
    report("lookup.scheduled_ns", scheduled, decimals: 2)
    report("lookup.scheduled.ratio_to_plain", scheduled / plain, decimals: 2)
}

func benchmarkTargeting() throws {
    let extra = """
      three_rules:
        type: bool
        default: false
        rules:
          - when: [{ attribute: email, ends_with: "@example.com" }]
            serve: true
          - when: [{ attribute: country, in: [DE, AT, CH] }, { attribute: plan, equals: pro }]
            serve: true
          - when: [{ attribute: age, less_than: 18 }]
            serve: false
        rollout: [{ value: true, weight: 25 }, { value: false, weight: 75 }]
      semver_rule:
        type: bool
        default: false
        rules:
          - when: [{ attribute: app_version, semver: ">= 2.1.0" }]
            serve: true

    """
    let (board, directory) = try makeBoard(count: 100, extra: extra)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let flagd = """
        {"flags": {"fractional-flag": {"state": "ENABLED", "variants": {"a": "a", "b": "b", "c": "c"},
         "defaultVariant": "a",
         "targeting": {"fractional": [["a", 50], ["b", 30], ["c", 20]]}}}}
        """
    try flagd.write(toFile: directory + "/flags/rollout.flagd.json", atomically: true, encoding: .utf8)
    board.reload()
    let user = EvaluationContext(targetingKey: "user-4711", attributes: [
        "email": "someone@elsewhere.org", "country": "FR", "plan": "free", "age": 40, "app_version": "2.3.1",
    ])
    let n = 1_000_000
    let plain = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.flag_50", default: false) { sink &+= 1 }
    }
    let rules = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.three_rules", default: false, context: user) { sink &+= 1 }
    }
    let fractional = measure(iterations: n) {
        for _ in 0..<n where board.string("fractional-flag", default: "", context: user) == "b" { sink &+= 1 }
    }
    let semver = measure(iterations: n) {
        for _ in 0..<n where board.bool("bench.semver_rule", default: false, context: user) { sink &+= 1 }
    }
    report("targeting.plain_lookup_ns", plain, decimals: 2)
    report("targeting.three_rules_and_rollout_ns", rules, decimals: 1)
    report("targeting.flagd_fractional_ns", fractional, decimals: 1)
    report("targeting.semver_rule_ns", semver, decimals: 1)
    report("targeting.three_rules_and_rollout.ratio_to_plain_lookup", rules / plain, decimals: 1)
    report("targeting.flagd_fractional.ratio_to_plain_lookup", fractional / plain, decimals: 1)
    report("targeting.semver_rule.ratio_to_plain_lookup", semver / plain, decimals: 1)
}

switch CommandLine.arguments.dropFirst().first {
case "store": try benchmarkStore()
case "load": benchmarkLoad()
case "lookup": try benchmarkLookup()
case "targeting": try benchmarkTargeting()
case "observe": try benchmarkObserve()
case "diff": try benchmarkDiff()
// The load benchmark's 10,000 definitions as YAML, for benchmarks that run the binary (`Benchmarks/run console`).
case "definitions": print(generatedDefinitions(count: 10_000), terminator: "")
// The same definitions as 20 files of 500 in a folder, for `Benchmarks/run load-compare`.
case "definition-files":
    let folder = CommandLine.arguments.dropFirst(2).first ?? "."
    for file in 0..<20 {
        let text = generatedDefinitions(count: 10_000, part: file * 500..<(file + 1) * 500)
        try text.write(toFile: folder + "/" + String(format: "part-%02d.yaml", file), atomically: false, encoding: .utf8)
    }
default:
    let usage = "usage: switchboard-bench load|lookup|targeting|store|observe|diff|definitions|definition-files DIR\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
if sink == 42 { print("") }
