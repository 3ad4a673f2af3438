import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// `AtomicFile`, the one way Switchboard replaces a whole file (the file store's state file, a remote board's
/// local overrides), under SIGKILL: `switchboard set` writers, each of whose writes rewrites a state file of a few
/// megabytes through it, are killed at random moments; the file is then always the old one or the new one, whole.
@Suite(.serialized)
struct AtomicFileKillTests {
    @Test func aKilledWriteLeavesTheOldFileOrTheNewOne() async throws {
        try await offThePool {
            let keys = (0..<40).map { "k.s\($0)" }
            let project = makeProject(definitions: "preferences:\n"
                + keys.map { "  \($0):\n    type: string\n    default: \"\"\n" }.joined())
            let path = project.storePath
            // A big store, written in-process: each key holds 100 KB, so a write takes a while to land.
            let filler = String(repeating: "x", count: 100_000)
            _ = try FileStore(path: path).apply(keys.map { OverrideChange(key: $0, value: .string(filler)) },
                                                by: .unverified("setup"), condition: nil)
            var generator = SystemRandomNumberGenerator()
            var midway = 0
            var killed = 0
            for round in 1...40 {
                let old = try #require(FileManager.default.contents(atPath: path))
                let value = "round \(round)"
                let writer = try startSwitchboard(["set", "--flags", project.flags, "k.s0", value],
                                                  environment: ["SWITCHBOARD_STATE_COMPACTION_BYTES": "1"])
                usleep(UInt32.random(in: 0..<250_000, using: &generator))
                kill(writer.processIdentifier, SIGKILL)
                try waitForExit(writer)
                if writer.terminationReason == .uncaughtSignal { killed += 1 }
                if FileManager.default.fileExists(atPath: path + ".tmp") { midway += 1 }
                let now = try #require(FileManager.default.contents(atPath: path))
                guard now != old else { continue }
                let state = try FileStore.decodeState([UInt8](now), path: path)
                #expect(state.contents.entries["k.s0"]?.value == .string(value),
                        "round \(round): the state file changed, but not to the new write")
            }
            print("atomic file kill test: \(killed) of 40 writers killed, \(midway) midway through a write")
            #expect(killed > 0)
        }
    }
}
