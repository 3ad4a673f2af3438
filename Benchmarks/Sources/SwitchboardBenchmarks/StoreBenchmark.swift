import Foundation
import Switchboard
import SwitchboardTesting

/// The median of some numbers.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Milliseconds since `start`.
func milliseconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// `Benchmarks/run store`: what a runtime write costs with the file store over 10,000 definitions, against the
/// floor of writing and fsyncing a file of the store's size; the memory 10,000 writes leave behind; and the cost
/// of publishing a new override table, with an in-memory store so that no disk time hides it, at 1,000 and
/// 10,000 definitions.
func benchmarkStore() throws {
    let count = 10_000
    let (board, directory) = try makeBoard(count: count)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let keys = 500
    // Warm up: every key the run writes has an override, so the store has its final size, and every set below
    // changes its key's value (a set to the value a key has writes nothing).
    for i in 0..<keys { try board.set("bench.flag_\(i)", to: false, actor: "bench") }
    let storePath = (board.store as? FileStore)?.path ?? ""
    let floorPath = (storePath as NSString).deletingLastPathComponent + "/fsync-floor"
    let before = memory().resident
    var sets: [Double] = []
    var floors: [Double] = []
    sets.reserveCapacity(count)
    for i in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        try board.set("bench.flag_\(i % keys)", to: (i / keys) % 2 == 0, actor: "bench")
        sets.append(milliseconds(since: start))
        // The floor, sampled among the sets so that both see the same disk and the same machine load: as many
        // bytes as the store file has, written to a new file in the same directory and fsynced.
        if i % 50 == 49 { floors.append(fsyncMilliseconds(path: floorPath, bytes: fileSize(storePath))) }
    }
    let growth = (memory().resident - before) / 1_048_576
    let size = fileSize(storePath)
    let setMedian = median(sets)
    let floor = median(floors)
    report("store.set_ms", setMedian, decimals: 3)
    // The mean carries the compactions, which the median does not see: one write in several hundred rewrites the
    // state file.
    report("store.set_mean_ms", sets.reduce(0, +) / Double(max(1, sets.count)), decimals: 3)
    report("store.fsync_ms", floor, decimals: 3)
    report("store.ratio_to_fsync", setMedian / floor, decimals: 2)
    report("store.file_bytes", Double(size), decimals: 0)
    report("store.rss_growth_mb", growth, decimals: 1)
    let small = try publishMicroseconds(definitions: 1_000)
    let large = try publishMicroseconds(definitions: 10_000)
    report("store.publish_us_1000", small, decimals: 1)
    report("store.publish_us_10000", large, decimals: 1)
    report("store.publish_us", large, decimals: 1)
}

/// A file's size in bytes (0 when it cannot be read).
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

/// Milliseconds to write `bytes` bytes to a new file at `path` and fsync it.
func fsyncMilliseconds(path: String, bytes: Int) -> Double {
    let data = [UInt8](repeating: UInt8(ascii: "x"), count: max(1, bytes))
    let start = DispatchTime.now().uptimeNanoseconds
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    fsync(fd)
    close(fd)
    return milliseconds(since: start)
}

/// The median cost, in microseconds, of a runtime write with an in-memory store: checking the value, retyping
/// the key and publishing the new override table. No disk is involved, so this is the publication's own cost.
func publishMicroseconds(definitions count: Int) throws -> Double {
    var yaml = "namespace: bench\nflags:\n"
    for i in 0..<count { yaml += "  flag_\(i):\n    type: bool\n    default: \(i % 2 == 0)\n" }
    let board = try Board.testing(yaml: yaml)
    var samples: [Double] = []
    for i in 0..<5_000 {
        let start = DispatchTime.now().uptimeNanoseconds
        try board.set("bench.flag_\((i * 7919) % count)", to: i % 3 == 0, actor: "bench")
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
    }
    return median(samples)
}
