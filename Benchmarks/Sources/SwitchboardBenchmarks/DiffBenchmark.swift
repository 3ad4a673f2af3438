import Foundation

// `Benchmarks/run diff`: `switchboard diff --from --to` on 10,000 definitions with 500 changed (rollout weights,
// rule values, defaults), over 10,000 contexts, against loading both folders alone (`validate` twice) in the same
// run. The release `switchboard` binary is `$SWITCHBOARD_BIN`, as `Benchmarks/run` builds it.

/// 10,000 flags, every fourth targeted by a rule and a rollout; `changed` says which of them the head edits.
func diffDefinitions(count: Int, changing changed: Set<Int>) -> String {
    var out = "namespace: bench\nflags:\n"
    for i in 0..<count {
        let edited = changed.contains(i)
        out += "  flag_\(i):\n    type: bool\n    owner: team-\(i % 17)\n"
        if i % 4 == 0 {
            let weight = edited ? 50 : 10
            out += """
                    default: false
                    rules:
                      - name: pro
                        when: [{ attribute: plan, equals: \(edited && i % 8 == 0 ? "team" : "pro") }]
                        serve: true
                    rollout: [{ value: true, weight: \(weight) }, { value: false, weight: \(100 - weight) }]

                """
        } else {
            out += "    default: \(edited ? "true" : "false")\n"
        }
    }
    return out
}

func benchmarkDiff() throws {
    guard let binary = ProcessInfo.processInfo.environment["SWITCHBOARD_BIN"] else {
        FileHandle.standardError.write(Data("diff: set SWITCHBOARD_BIN (Benchmarks/run diff does)\n".utf8))
        exit(2)
    }
    let count = 10_000, changedCount = 500, contextCount = 10_000
    let folder = NSTemporaryDirectory() + "switchboard-bench-diff-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for side in ["base", "head"] {
        try FileManager.default.createDirectory(atPath: "\(folder)/\(side)", withIntermediateDirectories: true)
    }
    // Spread over the file: every 20th flag, so a quarter of the changed ones are targeted.
    let changed = Set(stride(from: 0, to: count, by: count / changedCount))
    try diffDefinitions(count: count, changing: []).write(toFile: "\(folder)/base/bench.yaml", atomically: true,
                                                          encoding: .utf8)
    try diffDefinitions(count: count, changing: changed).write(toFile: "\(folder)/head/bench.yaml", atomically: true,
                                                               encoding: .utf8)
    let plans = ["free", "pro", "team", "enterprise"]
    try (0..<contextCount).map { "{\"targetingKey\": \"user-\($0)\", \"plan\": \"\(plans[$0 % plans.count])\"}\n" }
        .joined().write(toFile: "\(folder)/contexts.jsonl", atomically: true, encoding: .utf8)

    /// Seconds of the fastest of three runs of the binary with these arguments; the output of the last run.
    func run(_ arguments: [String]) throws -> (seconds: Double, output: String) {
        var best = Double.infinity
        var output = ""
        for _ in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.standardError
            let start = DispatchTime.now().uptimeNanoseconds
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            output = String(decoding: data, as: UTF8.self)
        }
        return (best, output)
    }

    let diff = try run(["diff", "--from", "base", "--to", "head", "--contexts", "contexts.jsonl", "--json",
                        "--state", "\(folder)/state.json"])
    let validateBase = try run(["validate", "--flags", "base"])
    let validateHead = try run(["validate", "--flags", "head"])
    let baseline = validateBase.seconds + validateHead.seconds
    let reported = diff.output.components(separatedBy: "\"key\":").count - 1
    print("diff.definitions: \(count)")
    print("diff.contexts: \(contextCount)")
    print("diff.changed_keys: \(reported)")
    report("diff.seconds", diff.seconds, decimals: 3)
    report("diff.load_both_seconds", baseline, decimals: 3)
    report("diff.ratio_to_load_both", diff.seconds / baseline, decimals: 2)
}
