import Dispatch
import Foundation
import SwiftParser

// `Benchmarks/run refs`: `switchboard refs` (the release `SwitchboardRefs` tool at $SWITCHBOARD_REFS_BIN) on 2,000
// generated Swift files that read 500 definitions in every form, against a baseline measured in the same run:
// reading and parsing the same files with swift-syntax's `Parser.parse` alone, on as many cores as `refs` uses.
// Prints `name: value` lines.

let fileCount = 2_000
let keyCount = 500

/// Definitions: 500 bool flags under `bench.`, in groups of ten (`bench.group_3.flag_7`).
func definitionsYAML() -> String {
    var text = "namespace: bench\nflags:\n"
    for key in 0..<keyCount {
        text += "  group_\(key / 10).flag_\(key % 10): {type: bool, default: false}\n"
    }
    return text
}

/// One source file of about 120 lines: a type with methods that read keys in every form, and code around them.
func source(_ index: Int) -> String {
    func key(_ offset: Int) -> (group: Int, flag: Int) {
        let key = (index * 7 + offset) % keyCount
        return (key / 10, key % 10)
    }
    var lines = ["import Foundation", "import Switchboard", "", "/// Generated file \(index).",
                 "struct Feature\(index) {", "    let board: Board", "    let config: ConfigReader", ""]
    for method in 0..<8 {
        let (g1, f1) = key(method * 3)
        let (g2, f2) = key(method * 3 + 1)
        let (g3, f3) = key(method * 3 + 2)
        lines += [
            "    // Reads bench.group_\(g1).flag_\(f1) and a few others.",
            "    func step\(method)(items: [String], count: Int) -> Int {",
            "        var total = count",
            "        if board.value(Flags.Bench.Group\(g1).flag\(f1)) {",
            "            total += items.count * \(method + 1)",
            "        }",
            "        if board.bool(\"bench.group_\(g2).flag_\(f2)\", default: false) {",
            "            total -= items.filter { $0.hasPrefix(\"x\") }.count",
            "        }",
            "        let key = FlagKey(\"bench.group_\(g3).flag_\(f3)\", default: false)",
            "        if board.value(key), config.bool(forKey: \"bench.group_\(g1).flag_\(f1)\", default: false) {",
            "            total = max(total, \(method))",
            "        }",
            "        return total",
            "    }",
            "",
        ]
    }
    lines += ["}", ""]
    return lines.joined(separator: "\n")
}

func report(_ name: String, _ value: Double, decimals: Int = 3) {
    print("\(name): \(String(format: "%.\(decimals)f", value))")
}

/// Seconds of the fastest of `rounds` runs of `body`.
func fastest(rounds: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

guard let binary = ProcessInfo.processInfo.environment["SWITCHBOARD_REFS_BIN"] else {
    FileHandle.standardError.write(Data("set SWITCHBOARD_REFS_BIN to the release SwitchboardRefs tool\n".utf8))
    exit(2)
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-refs-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: folder) }
let sources = folder.appendingPathComponent("Sources/App")
try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: folder.appendingPathComponent("flags"), withIntermediateDirectories: true)
try definitionsYAML().write(to: folder.appendingPathComponent("flags/bench.yaml"), atomically: true, encoding: .utf8)
var paths: [String] = []
var lineCount = 0
for index in 0..<fileCount {
    let text = source(index)
    lineCount += text.split(separator: "\n", omittingEmptySubsequences: false).count
    let url = sources.appendingPathComponent("Feature\(index).swift")
    try text.write(to: url, atomically: true, encoding: .utf8)
    paths.append(url.path)
}

var lastOutput = Data()
let refs = try fastest {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--json", "--flags", "flags"]
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    lastOutput = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "switchboard-refs failed")
}

let parse = fastest {
    var nodes = [Int](repeating: 0, count: paths.count)
    let files = paths
    // Each iteration writes its own slot, as refs does.
    nodes.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let output = buffer
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let text = String(decoding: FileManager.default.contents(atPath: files[index]) ?? Data(), as: UTF8.self)
            output[index] = Parser.parse(source: text).statements.count
        }
    }
    precondition(nodes.allSatisfy { $0 > 0 })
}

// Check that the run found what the files hold: every definition referenced, 4 references per method.
let document = try JSONSerialization.jsonObject(with: lastOutput) as? [String: Any]
let definitions = document?["definitions"] as? [[String: Any]] ?? []
let found = definitions.reduce(0) { $0 + (($1["references"] as? [Any])?.count ?? 0) }
precondition(found == fileCount * 8 * 4, "expected \(fileCount * 32) references, found \(found)")

print("refs.files: \(fileCount)")
print("refs.lines: \(lineCount)")
print("refs.references: \(found)")
report("refs.seconds", refs)
report("refs.parse_seconds", parse)
report("refs.ratio_to_parse", refs / parse, decimals: 2)
